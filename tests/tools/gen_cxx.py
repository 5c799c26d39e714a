#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Random C++ class declarations for differential tests (t2041-random-cxx.sh).

    gen_cxx.py SEED [OUT.cc] [--all]

writes one C++17 translation unit (to OUT.cc, else stdout), the same bytes
for the same SEED on every run (random.Random(SEED), no set or hash
order). Its first line names top-level classes for `pahole -E -C`:

    // EXPAND: Name1 Name2

It declares, at random, top-level classes, structs and unions (pahole lists
no type inside a namespace), single and multiple non-virtual inheritance
(empty bases, bases of size 1, chains of empty bases), access sections,
data members of base types, pointers, references, arrays, enums and enum
classes with underlying types, nested and anonymous classes and unions,
bit-fields (bool and enum ones too), static data members (with and without
initialisers, constexpr), methods (virtual, pure virtual, overriding,
const, static, inline, operators, constructors and destructors), nested
types declared among the members in any order, class templates with type
and non-type parameters, alignas and packed classes and #pragma pack,
typedefs and using-aliases, globals of each type and a main() that uses
them so that -O2 keeps them. It compiles with g++ 12 and clang++ 14.

Left out, as docs/compat.md lists them: virtual bases, pointers to members
and nullptr_t (P9), using-declarations of types (P10), _Atomic (P1), btf
tags (P2/P5); and, unless --all is given, nested or anonymous types in
packed classes (P11) and references in packed classes (P12).
(Written by a helper session; 800 seeds of it ran clean against pahole
1.24 but for P11, P12 and 1.24's "DW_AT_<0x1c>=0xa" on stderr.)
"""
import random
import sys

# Leave out what triggers P11 (nested types in packed classes) and P12
# (references in packed classes) unless --all.
AVOID = "--all" not in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--all"]

# name, size, align, integral
SCALARS = [
    ("char", 1, 1, True), ("signed char", 1, 1, True), ("unsigned char", 1, 1, True),
    ("short", 2, 2, True), ("unsigned short", 2, 2, True),
    ("int", 4, 4, True), ("unsigned int", 4, 4, True),
    ("long", 8, 8, True), ("unsigned long", 8, 8, True),
    ("long long", 8, 8, True), ("unsigned long long", 8, 8, True),
    ("float", 4, 4, False), ("double", 8, 8, False), ("long double", 16, 16, False),
    ("bool", 1, 1, True), ("wchar_t", 4, 4, True), ("char16_t", 2, 2, True),
    ("char32_t", 4, 4, True), ("__int128", 16, 16, False), ("unsigned __int128", 16, 16, False),
]
BF_TYPES = [s for s in SCALARS if s[3] and s[0] not in ("wchar_t", "char16_t", "char32_t")]

TYPEDEFS = [("u8", "unsigned char", 1, 1, True), ("s16", "short", 2, 2, True),
            ("u32", "unsigned int", 4, 4, True), ("s64", "long long", 8, 8, True),
            ("real_t", "double", 8, 8, False), ("cstr_t", "const char *", 8, 8, False)]


class T:
    """A usable type: spelling, size/align estimate, flags."""

    def __init__(self, spell, size=8, align=8, trivial=True, integral=False,
                 cls=None, enum=None, bits=None, arith=False):
        self.spell = spell
        self.size = size
        self.align = align
        self.trivial = trivial      # usable in a union / packed struct
        self.integral = integral    # usable as a bit-field
        self.cls = cls
        self.enum = enum
        self.bits = bits            # bit width for bit-fields
        self.arith = arith          # can be added to a long in main()


class Cls:
    def __init__(self, name, key):
        self.name = name           # qualified name usable at top level
        self.key = key             # struct/class/union
        self.bases = []            # (access, Cls)
        self.trivial = True
        self.abstract = False
        self.pure = set()          # remaining pure virtual names
        self.virtuals = {}         # name -> (ret, params, const) incl. inherited
        self.methods = []          # (name, access, ret, params, const, kind)
        self.pubdata = []          # public arithmetic data member names
        self.statics = []          # public static names
        self.align = 1
        self.copyable = True
        self.polymorphic = False
        self.toplevel = True
        self.ancestors = []        # flattened list of ancestors (with repeats)
        self.nonpriv_methods = []  # (name, access) usable by a derived using-decl


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.out = []
        self.post = []           # out-of-class definitions
        self.globals = []        # global variable definitions
        self.main = []           # statements in main
        self.n = 0
        self.classes = []        # top-level Cls usable
        self.ns_classes = []     # namespaced Cls
        self.enums = []          # T of enums
        self.tpl_insts = []      # T of template instances
        self.templates = []
        self.ref_targets = {}
        self.expand = []
        self.aliases = []
        self.reftgt_defs = []
        self.in_pragma = False
        self.tpl_nontrivial = set()

    def uid(self, p):
        self.n += 1
        return "%s%d" % (p, self.n)

    def chance(self, p):
        return self.r.random() < p

    # ---------------------------------------------------------------- types
    def scalar(self):
        n, s, a, integ = self.r.choice(SCALARS)
        bits = s * 8 if integ else None
        if n == "bool":
            bits = 1
        return T(n, s, a, True, integ, bits=bits, arith=True)

    def typedef_t(self):
        n, _, s, a, integ = self.r.choice(TYPEDEFS)
        return T(n, s, a, True, integ, bits=s * 8 if integ else None, arith=(n != "cstr_t"))

    def any_class(self, need_trivial=False, extra=()):
        pool = [c for c in self.classes + self.ns_classes if not c.abstract]
        pool += list(extra)
        if need_trivial:
            pool = [c for c in pool if c.trivial]
        if not pool:
            return None
        c = self.r.choice(pool)
        return T("::" + c.name, 8, max(c.align, 1), c.trivial, cls=c)

    def pointee(self, extra=()):
        k = self.r.randrange(7)
        if k == 0:
            return "void"
        if k == 1:
            return "const char"
        if k == 2 and (self.classes or self.ns_classes):
            c = self.r.choice(self.classes + self.ns_classes)   # abstract ok
            return "::" + c.name
        if k == 3 and self.enums:
            return self.r.choice(self.enums).spell
        if k == 4 and self.tpl_insts:
            return self.r.choice(self.tpl_insts).spell
        if k == 5:
            return self.r.choice(["const volatile int", "volatile long", "unsigned char", "double"])
        return self.scalar().spell

    def fnptr_decl(self, name):
        ret = self.r.choice(["void", "int", "long", "const char *", "double"])
        ps = []
        for _ in range(self.r.randrange(4)):
            ps.append(self.r.choice(["int", "char *", "const void *", "long", "double",
                                     "int &", "const " + ("::" + self.r.choice(self.classes).name
                                                           if self.classes else "char") + " &"]))
        if self.chance(0.15):
            ps.append("...") if ps else ps.append("void")
        return "%s (*%s)(%s)" % (ret, name, ", ".join(ps))

    def ref_target(self, spell):
        if spell not in self.ref_targets:
            g = self.uid("g_tgt")
            self.ref_targets[spell] = g
            self.reftgt_defs.append("%s %s;" % (spell, g))
        return self.ref_targets[spell]

    # A member declaration: returns (decl_text, T-or-None, trivial, name)
    def member_decl(self, name, ctx_types=(), in_union=False, allow_ref=True):
        r = self.r
        w = r.randrange(100)
        need_triv = in_union
        if w < 28:
            t = self.scalar()
            cv = ""
            if not in_union and self.chance(0.05):
                cv = "volatile "
            return ("%s%s %s" % (cv, t.spell, name), t, True)
        if w < 34:
            t = self.typedef_t()
            return ("%s %s" % (t.spell, name), t, True)
        if w < 46:
            pt = self.pointee(ctx_types)
            stars = "*" if self.chance(0.85) else "**"
            if not in_union and self.chance(0.1):
                return ("%s %s const %s = 0" % (pt, stars, name), None, False)
            return ("%s %s %s" % (pt, stars, name), None, True)
        if w < 54:
            base = self.scalar() if self.chance(0.6) else (self.any_class(need_triv) or self.scalar())
            dims = "[%d]" % r.choice([0, 1, 2, 3, 5, 7, 16])
            if self.chance(0.2):
                dims += "[%d]" % r.choice([2, 3, 4])
            return ("%s %s%s" % (base.spell, name, dims), base, base.trivial)
        if w < 62 and self.enums:
            t = self.r.choice(self.enums)
            return ("%s %s" % (t.spell, name), t, True)
        if w < 76:
            pool = list(ctx_types)
            if pool and self.chance(0.5):
                t = self.r.choice(pool)
                if not need_triv or t.trivial:
                    return ("%s %s" % (t.spell, name), t, t.trivial)
            t = self.any_class(need_triv)
            if t:
                return ("%s %s" % (t.spell, name), t, t.trivial)
        if w < 82 and self.tpl_insts:
            pool = [t for t in self.tpl_insts if t.trivial or not need_triv]
            if pool:
                t = self.r.choice(pool)
                return ("%s %s" % (t.spell, name), t, t.trivial)
        if w < 86 and allow_ref and not in_union and not (AVOID and self.in_pragma):
            t = self.scalar() if self.chance(0.7) else self.typedef_t()
            if t.spell == "cstr_t":
                t = self.scalar()
            c = "const " if self.chance(0.4) else ""
            return ("%s%s &%s = %s" % (c, t.spell, name, self.ref_target(t.spell)), None, False)
        if w < 92:
            return (self.fnptr_decl(name), None, True)
        if w < 95 and not in_union:
            t = self.scalar()
            if t.spell in ("__int128", "unsigned __int128"):
                t = T("int", 4, 4, True, True)
            return ("const %s %s = 1" % (t.spell, name), None, False)
        t = self.scalar()
        return ("%s %s" % (t.spell, name), t, True)

    def bitfield_decl(self, name):
        r = self.r
        k = r.randrange(10)
        if k < 2 and self.enums:
            e = r.choice(self.enums)
            return "%s %s : %d" % (e.spell, name, r.randint(e.bits, max(e.bits, min(e.size * 8, e.bits + 3))))
        if k < 3:
            return "bool %s : 1" % name
        if k < 4:
            n, _, s, a, integ = r.choice([t for t in TYPEDEFS if t[4]])
            return "%s %s : %d" % (n, name, r.randint(1, s * 8))
        n, s, a, integ = r.choice(BF_TYPES)
        if n == "bool":
            return "bool %s : 1" % name
        return "%s %s : %d" % (n, name, r.randint(1, s * 8))

    # ---------------------------------------------------------------- enums
    def gen_enum(self, indent="", qual="", into=None):
        r = self.r
        name = self.uid("E")
        k = r.randrange(4)
        n = r.randint(1, 6)
        vals = []
        v = r.choice([0, -2, 1, 100])
        for i in range(n):
            en = self.uid("%s_v" % name.lower())
            if self.chance(0.3):
                v = r.choice([v + 1, v + 7, -v - 1, 1000, 70000, 1 << 20])
            vals.append("%s = %d" % (en, v))
            v += 1
        nums = [int(x.split("= ")[1]) for x in vals]
        lo, hi = min(nums), max(nums)
        if k == 0:
            head = "enum %s" % name
            underlying = None
        elif k == 1:
            ut = r.choice(["unsigned char", "short", "unsigned int", "long", "unsigned long long", "signed char"])
            head = "enum class %s : %s" % (name, ut)
            underlying = ut
        elif k == 2:
            head = "enum class %s" % name
            underlying = "int"
        else:
            ut = r.choice(["unsigned short", "int", "long long", "char"])
            head = "enum %s : %s" % (name, ut)
            underlying = ut
        # keep values in range of the underlying type
        rng = {"unsigned char": (0, 255), "signed char": (-128, 127), "char": (-128, 127),
               "short": (-32768, 32767), "unsigned short": (0, 65535),
               "unsigned int": (0, 1 << 31), "unsigned long long": (0, 1 << 40)}
        if underlying in rng:
            a, b = rng[underlying]
            nums = [min(max(x, a), b) for x in nums]
            vals = ["%s = %d" % (vv.split(" = ")[0], x) for vv, x in zip(vals, nums)]
            lo, hi = min(nums), max(nums)
        lines = ["%s%s {" % (indent, head)]
        for vv in vals:
            lines.append("%s\t%s," % (indent, vv))
        lines.append("%s};" % indent)
        sizes = {"unsigned char": 1, "signed char": 1, "char": 1, "short": 2, "unsigned short": 2,
                 "unsigned int": 4, "int": 4, "long": 8, "long long": 8, "unsigned long long": 8}
        if underlying:
            size = sizes[underlying]
        else:
            size = 4 if -(1 << 31) <= lo and hi < (1 << 31) else 8
        # bits needed for a bit-field of the enum
        signed = lo < 0 or (underlying and not underlying.startswith("unsigned"))
        m = max(abs(lo), abs(hi), 1)
        bits = m.bit_length() + (1 if signed else 0)
        if underlying:
            bits = max(bits, 1)
            bits = size * 8 if signed and not underlying else bits
        if not underlying:
            bits = size * 8  # avoid "too small to hold all values" warnings
        bits = min(bits, size * 8)
        t = T((qual + name), size, size, True, True, enum=name, bits=bits)
        return lines, t

    # ------------------------------------------------------------ templates
    def gen_template(self):
        r = self.r
        name = self.uid("Tpl")
        params = []
        np = r.randint(1, 3)
        for i in range(np):
            k = r.randrange(4)
            if k <= 1:
                params.append(("typename", "T%d" % i))
            elif k == 2:
                params.append(("int", "N%d" % i))
            else:
                params.append(("bool", "B%d" % i))
        if not any(p[0] == "typename" for p in params) and self.chance(0.5):
            params[0] = ("typename", "T0")
        has_default = self.chance(0.3)
        ptxt = []
        for j, (k, n) in enumerate(params):
            d = ""
            if has_default and j == len(params) - 1:
                d = {"typename": " = int", "int": " = 4", "bool": " = true"}[k]
            ptxt.append("%s %s%s" % (k, n, d))
        key = r.choice(["struct", "class", "union"]) if self.chance(0.15) else r.choice(["struct", "class"])
        lines = ["template <%s>" % ", ".join(ptxt), "%s %s {" % (key, name)]
        if key == "class":
            lines.append("public:")
        mem = []
        for i in range(r.randint(1, 5)):
            k = r.randrange(6)
            tn = [n for kk, n in params if kk == "typename"]
            nn = [n for kk, n in params if kk == "int"]
            bn = [n for kk, n in params if kk == "bool"]
            mn = "f%d" % i
            if k == 0 and tn:
                mem.append("\t%s %s;" % (r.choice(tn), mn))
            elif k == 1 and tn:
                mem.append("\t%s *%s;" % (r.choice(tn), mn))
            elif k == 2 and nn:
                base = r.choice(tn) if tn and key != "union" else "char"
                mem.append("\t%s %s[%s > 0 ? %s : 1];" % (base, mn, nn[0], nn[0]))
            elif k == 3 and bn:
                mem.append("\tchar %s[%s ? 3 : 5];" % (mn, bn[0]))
            else:
                mem.append("\t%s %s;" % (self.scalar().spell, mn))
        lines += mem
        if key != "union" and self.chance(0.6):
            lines.append("\tstatic const int count = %d;" % r.randint(0, 9))
        tn = [n for kk, n in params if kk == "typename"]
        if tn and key != "union" and self.chance(0.4):
            lines.append("\ttypedef %s value_type;" % tn[0])
            lines.append("\tstruct Node { value_type v; Node *next; };")
            lines.append("\tNode head;")
            if self.chance(0.5):
                lines.append("\tNode nodes[2];")
        if self.chance(0.6):
            lines.append("\tint size() const { return (int)sizeof(*this); }")
        vd = False
        if key != "union" and self.chance(0.3):
            lines.append("\tvirtual ~%s() {}" % name)
            vd = True
        lines.append("};")
        self.out += lines
        self.templates.append((name, params, key))
        if vd:
            self.tpl_nontrivial.add(name)

    def instantiate(self, need_trivial=False):
        if not self.templates:
            return None
        r = self.r
        name, params, key = r.choice(self.templates)
        args = []
        al = 1
        for j, (k, n) in enumerate(params):
            if k == "typename":
                c = r.randrange(5)
                if c == 0 and self.enums:
                    args.append(r.choice(self.enums).spell)
                elif c == 1:
                    cl = self.any_class(need_trivial=True)
                    args.append(cl.spell if cl and key != "union" else "long")
                    if cl and key != "union":
                        al = max(al, cl.align)
                elif c == 2:
                    args.append(self.pointee() + " *")
                else:
                    s = self.scalar().spell
                    args.append(s)
            elif k == "int":
                args.append(str(r.choice([0, 1, 2, 3, 8])))
            else:
                args.append(r.choice(["true", "false"]))
        spell = "%s< %s>" % (name, ", ".join(args))
        t = T(spell, 8, al, name not in self.tpl_nontrivial)
        return t

    # -------------------------------------------------------------- classes
    def method_params(self, cls_name):
        r = self.r
        ps = []
        for i in range(r.choice([0, 0, 1, 1, 2, 3])):
            k = r.randrange(10)
            if k < 4:
                ps.append(r.choice(["int", "long", "char", "double", "unsigned", "bool"]))
            elif k < 6:
                ps.append("const %s &" % cls_name)
            elif k == 6:
                ps.append("%s *" % cls_name)
            elif k == 7 and self.enums:
                ps.append(r.choice(self.enums).spell)
            elif k == 8 and self.classes:
                ps.append("const ::%s &" % r.choice(self.classes).name)
            else:
                ps.append("const char *")
        return ps

    def args_for(self, params):
        out = []
        for p in params:
            if p in ("int", "long", "char", "double", "unsigned", "bool"):
                out.append({"int": "1", "long": "2L", "char": "'c'", "double": "1.5",
                            "unsigned": "3u", "bool": "true"}[p])
            elif p.endswith("&&"):
                return None
            elif p.startswith("const ") and p.endswith(" &"):
                n = p[6:-2]
                g = self.concrete_global(n.lstrip(":"))
                if g is None:
                    return None
                out.append(g)
            elif p.endswith("*"):
                out.append("(%s)0" % p)
            else:
                enum = [e for e in self.enums if e.spell == p]
                if enum:
                    out.append("(%s)0" % p)
                else:
                    return None
        return ", ".join(out)

    def concrete_global(self, name):
        return self.gvars.get(name)

    def ret_expr(self, ret, cls_name):
        return {"int": "return 1;", "long": "return 2;", "void": "", "bool": "return false;",
                "double": "return 0.5;", "const char *": 'return "x";',
                "%s &" % cls_name: "return *this;", "unsigned char": "return 3;"}[ret]

    def gen_class(self, indent="", top=True, qual="", depth=0, key=None, ctx_extra=(), pub=True):
        """Generates a class definition; returns (lines, Cls)."""
        r = self.r
        key = key or r.choice(["struct", "struct", "class", "class", "union"] if depth == 0 or True else ["struct"])
        name = self.uid({"struct": "S", "class": "C", "union": "U"}[key])
        c = Cls(qual + name, key)
        c.toplevel = top
        lines = []
        attrs = ""
        packed = False
        if key != "union" and self.chance(0.1):
            attrs = " __attribute__((packed))"
            packed = True
        align = ""
        if not packed and self.chance(0.08) and not (top and self.chance(0.0)):
            al = r.choice([16, 32, 64])
            align = " alignas(%d)" % al
            c.align = al
        # bases
        bases = []
        if key != "union" and top and self.classes and self.chance(0.55):
            pool = [b for b in self.classes if b.key != "union" and not b.final]
            nb = r.choice([1, 1, 1, 2, 2, 3])
            r.shuffle(pool)
            for b in pool[:nb]:
                acc = r.choice(["public", "public", "public", "protected", "private", ""])
                bases.append((acc, b))
        c.bases = bases
        c.final = top and self.chance(0.05)
        for acc, b in bases:
            c.ancestors.append(b)
            c.ancestors += b.ancestors
        basetxt = ""
        if bases:
            basetxt = " : " + ", ".join(("%s ::%s" % (a, b.name)).strip() for a, b in bases)
        head = "%s%s%s%s%s%s%s {" % (indent, key, attrs, align, " " + name,
                                      " final" if c.final else "", basetxt)
        lines.append(head)
        for acc, b in bases:
            c.virtuals.update(b.virtuals)
            c.pure |= b.pure
            c.polymorphic |= b.polymorphic
            c.trivial &= b.trivial
        cur_access = "private" if key == "class" else "public"
        sections = []
        access_choices = ["public", "protected", "private"] if key != "union" else ["public", "private"]
        in_ = indent + "\t"
        local_types = []   # T of nested types usable as member types
        nmem = r.randint(0, 9)
        items = []
        # plan the items
        for i in range(nmem):
            items.append("data")
        for i in range(r.randint(0, 4)):
            items.append(r.choice(["method", "method", "static", "nested", "enum", "typedef",
                                   "virtual", "bitfields", "anon", "operator", "ctor",
                                   "using", "tmethod", "friend", "deleted", "outofline"]))
        r.shuffle(items)
        if self.chance(0.1):
            items = []    # empty class
        has_ctor = False
        has_dtor = False
        maxal = 1
        used_using = set()
        used_ops = set()
        body = []
        idx = 0
        usedattr = False
        for it in items:
            if self.chance(0.25):
                na = r.choice(access_choices)
                if na != cur_access or self.chance(0.2):
                    body.append("%s%s:" % (indent, na))
                    cur_access = na
            idx += 1
            if it == "data":
                mn = "m%s_%d" % (name.lower(), idx)
                decl, t, triv = self.member_decl(mn, local_types, in_union=(key == "union" or packed))
                if not triv:
                    c.trivial = False
                if decl.startswith("const ") and " = 1" in decl:
                    c.copyable = c.copyable
                al = ""
                if t is not None:
                    maxal = max(maxal, t.align)
                if not packed and self.chance(0.07) and "=" not in decl and "(*" not in decl:
                    av = max(r.choice([16, 32]), t.align if t is not None else 1)
                    maxal = max(maxal, av)
                    al = "alignas(%d) " % av if self.chance(0.6) else ""
                    if not al:
                        decl += " __attribute__((aligned(%d)))" % av
                body.append("%s%s%s;" % (in_, al, decl))
                if cur_access == "public" and t is not None and t.arith and "=" not in decl and "[" not in decl:
                    c.pubdata.append(mn)
            elif it == "bitfields":
                for j in range(r.randint(1, 5)):
                    if self.chance(0.1):
                        n, s, a, integ = r.choice(BF_TYPES[:11])
                        body.append("%s%s : %d;" % (in_, n, r.choice([0, 0, r.randint(1, s * 8)])))
                        continue
                    bn = "b%s_%d_%d" % (name.lower(), idx, j)
                    body.append("%s%s;" % (in_, self.bitfield_decl(bn)))
            elif it in ("anon", "nested") and AVOID and (packed or self.in_pragma):
                body.append("%sint x%s_%d;" % (in_, name.lower(), idx))
            elif it == "anon" and key != "union" or (it == "anon" and self.chance(0.5)):
                ak = r.choice(["union", "union", "struct"])
                named = self.chance(0.3)
                body.append("%s%s {" % (in_, ak))
                for j in range(r.randint(1, 4)):
                    t = self.scalar() if self.chance(0.7) else self.typedef_t()
                    if self.chance(0.15):
                        ik = "struct" if ak == "union" else "union"
                        body.append("%s\t%s {" % (in_, ik))
                        for q in range(r.randint(1, 3)):
                            body.append("%s\t\t%s i%s_%d_%d_%d;" % (in_, self.scalar().spell, name.lower(), idx, j, q))
                        body.append("%s\t};" % in_)
                        continue
                    if self.chance(0.2):
                        body.append("%s\t%s;" % (in_, self.bitfield_decl("a%s_%d_%d" % (name.lower(), idx, j))))
                    else:
                        arr = "[%d]" % r.randint(1, 4) if self.chance(0.2) else ""
                        body.append("%s\t%s a%s_%d_%d%s;" % (in_, t.spell, name.lower(), idx, j, arr))
                body.append("%s}%s;" % (in_, (" n%s_%d" % (name.lower(), idx)) if named else ""))
            elif it == "anon":
                body.append("%sint x%s_%d;" % (in_, name.lower(), idx))
            elif it == "nested" and depth < 2:
                nkey = r.choice(["struct", "class", "union"])
                nl, nc = self.gen_class(in_, top=False, qual=c.name + "::", depth=depth + 1, key=nkey,
                                        ctx_extra=local_types, pub=pub and cur_access == "public")
                body += nl
                if not nc.abstract:
                    t = T(nc.name[len(c.name) + 2:], 8, max(nc.align, 1), nc.trivial, cls=nc)
                    local_types.append(t)
                    if self.chance(0.6):
                        mn = "n%s_%d" % (name.lower(), idx)
                        if key != "union" and not packed or nc.trivial:
                            body.append("%s%s %s;" % (in_, t.spell, mn))
                            maxal = max(maxal, nc.align)
                            if not nc.trivial:
                                c.trivial = False
                    if self.chance(0.3) and pub and cur_access == "public":
                        self.ns_classes.append(nc)
            elif it == "enum":
                el, et = self.gen_enum(in_, qual=c.name + "::")
                body += el
                lt = T(et.spell[len(c.name) + 2:], et.size, et.align, True, True, enum=et.enum, bits=et.bits)
                local_types.append(lt)
                if self.chance(0.7):
                    mn = "e%s_%d" % (name.lower(), idx)
                    if self.chance(0.3):
                        body.append("%s%s %s : %d;" % (in_, lt.spell, mn, et.bits))
                    else:
                        body.append("%s%s %s;" % (in_, lt.spell, mn))
                if self.chance(0.4) and pub and cur_access == "public":
                    self.enums.append(et)
            elif it == "typedef":
                tn = "t%s_%d" % (name.lower(), idx)
                src = self.r.choice([self.scalar().spell, self.pointee() + " *"] +
                                    [lt.spell for lt in local_types])
                if self.chance(0.5):
                    body.append("%stypedef %s %s;" % (in_, src, tn))
                else:
                    body.append("%susing %s = %s;" % (in_, tn, src))
                nontriv = any(lt.spell == src and not lt.trivial for lt in local_types)
                if self.chance(0.7) and not (nontriv and (key == "union" or packed)):
                    body.append("%s%s v%s;" % (in_, tn, tn))
                    if nontriv:
                        c.trivial = False
            elif it == "static" and (top and key != "union" or key != "union" and self.chance(0.3)) and depth == 0:
                sn = "s%s_%d" % (name.lower(), idx)
                k = r.randrange(6)
                st = r.choice(["int", "long", "unsigned char", "double", "short"])
                if k == 0:
                    body.append("%sstatic %s %s;" % (in_, st, sn))
                    self.post.append("%s %s::%s;" % (st, c.name, sn))
                elif k == 1:
                    body.append("%sstatic %s %s;" % (in_, st, sn))
                    self.post.append("%s %s::%s = 3;" % (st, c.name, sn))
                elif k == 2:
                    st = r.choice(["int", "long", "char", "unsigned"])
                    body.append("%sstatic const %s %s = 5;" % (in_, st, sn))
                elif k == 3:
                    body.append("%sstatic constexpr %s %s = 7;" % (in_, st, sn))
                elif k == 4:
                    body.append("%sstatic inline %s %s = 9;" % (in_, st, sn))
                else:
                    body.append("%sstatic const char *const %s;" % (in_, sn))
                    self.post.append('const char *const %s::%s = "str";' % (c.name, sn))
                    st = None
                if cur_access == "public" and st:
                    c.statics.append(sn)
            elif it in ("method", "operator", "tmethod", "deleted", "outofline") or (
                    it == "virtual" and key == "union"):
                mname = self.uid("f")
                ps = self.method_params(c.name)
                ret = r.choice(["int", "long", "void", "bool", "double", "const char *"])
                const = " const" if self.chance(0.4) else ""
                if it == "operator":
                    k = r.randrange(7)
                    if k in used_ops:
                        continue
                    used_ops.add(k)
                    if k == 0:
                        body.append("%sbool operator==(const %s &o) const { return this == &o; }" % (in_, name))
                    elif k == 1:
                        body.append("%s%s &operator+=(int v) { (void)v; return *this; }" % (in_, name))
                    elif k == 2:
                        body.append("%sint operator()(int v, long w) const { return v + (int)w; }" % in_)
                        if cur_access == "public" and top:
                            c.methods.append(("operator()", cur_access, "int", ["int", "long"], " const", "op"))
                    elif k == 3:
                        body.append("%sint operator[](int i) const { return i; }" % in_)
                    elif k == 4:
                        body.append("%sexplicit operator bool() const { return true; }" % in_)
                    elif k == 5:
                        body.append("%soperator long() const { return 4; }" % in_)
                    else:
                        body.append("%s%s &operator=(const %s &) { return *this; }" % (in_, name, name))
                    continue
                if it == "tmethod":
                    body.append("%stemplate <typename X> X %s(X x)%s { return x; }" % (in_, mname, const))
                    if cur_access == "public" and top:
                        c.methods.append((mname, cur_access, "tmpl", ["int"], const, "tmpl"))
                    continue
                if it == "deleted":
                    body.append("%svoid %s(%s) = delete;" % (in_, mname, ", ".join(ps)))
                    continue
                pre = ""
                k = r.randrange(5)
                if k == 0:
                    pre = "static "
                    const = ""
                elif k == 1:
                    pre = "inline "
                if self.chance(0.1):
                    ps = ps + ["%s &&" % name]
                if self.chance(0.1):
                    const += " noexcept"
                pstr = ", ".join("%s p%d" % (p, i) if not p.endswith(("*", "&")) else "%sp%d" % (p, i)
                                 for i, p in enumerate(ps))
                body_txt = self.ret_expr(ret, name)
                if it == "outofline" and top:
                    body.append("%s%s%s %s(%s)%s;" % (in_, pre, ret, mname, pstr, const))
                    self.post.append("%s %s::%s(%s)%s { %s }" % (ret, c.name, mname, pstr,
                                                                 const, self.ret_expr(ret, c.name)))
                else:
                    body.append("%s%s%s %s(%s)%s { %s }" % (in_, pre, ret, mname, pstr, const, body_txt))
                if pre == "static " and cur_access == "public" and top:
                    c.methods.append((mname, cur_access, ret, ps, const, "static"))
                elif cur_access == "public" and top:
                    c.methods.append((mname, cur_access, ret, ps, const, "plain"))
                if cur_access != "private" and pre != "static ":
                    c.nonpriv_methods.append(mname)
            elif it == "virtual" and key != "union":
                c.polymorphic = True
                c.trivial = False
                k = r.randrange(4)
                inherited = [v for v in c.virtuals if v not in c.own_virt] if hasattr(c, "own_virt") else list(c.virtuals)
                if not hasattr(c, "own_virt"):
                    c.own_virt = set()
                if k <= 1 and inherited:
                    vn = r.choice(inherited)
                    ret, ps, const = c.virtuals[vn]
                    pstr = ", ".join("%s p%d" % (p, i) if not p.endswith(("*", "&")) else "%sp%d" % (p, i)
                                     for i, p in enumerate(ps))
                    ov = r.choice([" override", "", " final"]) if not c.final else " override"
                    virt = "virtual " if self.chance(0.3) else ""
                    body.append("%s%s%s %s(%s)%s%s { %s }" % (in_, virt, ret, vn, pstr, const, ov,
                                                             self.ret_expr(ret, "??")))
                    c.pure.discard(vn)
                    c.own_virt.add(vn)
                    if cur_access == "public" and top:
                        c.methods.append((vn, cur_access, ret, ps, const, "plain"))
                else:
                    vn = self.uid("v")
                    ps = [p for p in self.method_params(c.name)]
                    ps = [p.replace(c.name, name) for p in ps]
                    ret = r.choice(["int", "long", "void", "bool", "double"])
                    const = " const" if self.chance(0.4) else ""
                    pstr = ", ".join("%s p%d" % (p, i) if not p.endswith(("*", "&")) else "%sp%d" % (p, i)
                                     for i, p in enumerate(ps))
                    if k == 2 and top and not c.final:
                        body.append("%svirtual %s %s(%s)%s = 0;" % (in_, ret, vn, pstr, const))
                        c.pure.add(vn)
                    else:
                        body.append("%svirtual %s %s(%s)%s { %s }" % (in_, ret, vn, pstr, const,
                                                                    self.ret_expr(ret, "??")))
                    # record with the qualified spelling
                    c.virtuals[vn] = (ret, [p.replace(name, c.name) if p.startswith("const " + name + " ") or p == name + " *" else p for p in ps], const)
                    c.own_virt.add(vn)
                    if cur_access == "public" and top and k != 2:
                        c.methods.append((vn, cur_access, ret, c.virtuals[vn][1], const, "plain"))
            elif it == "ctor" and not has_ctor:
                has_ctor = True
                c.trivial = False
                body.append("%s%s() {}" % (in_, name))
                if self.chance(0.5):
                    body.append("%sexplicit %s(int v) { (void)v; }" % (in_, name))
                if self.chance(0.3):
                    body.append("%s%s(const %s &) {}" % (in_, name, name))
                if self.chance(0.2) and key != "union":
                    body.append("%s%s(%s &&) noexcept {}" % (in_, name, name))
                    c.copyable = False
                if not has_dtor and self.chance(0.6):
                    has_dtor = True
                    if key != "union" and self.chance(0.5):
                        body.append("%svirtual ~%s() {}" % (in_, name))
                        c.polymorphic = True
                    elif self.chance(0.2):
                        body.append("%s~%s() = default;" % (in_, name))
                    else:
                        body.append("%s~%s() {}" % (in_, name))
                # the constructors must be public for globals
                if cur_access != "public":
                    body.insert(len(body) - 1, "")
            elif it == "using" and bases:
                acc, b = r.choice(bases)
                if b.nonpriv_methods and c.ancestors.count(b) == 1:
                    um = r.choice(b.nonpriv_methods)
                    if um not in used_using:
                        used_using.add(um)
                        body.append("%susing ::%s::%s;" % (in_, b.name, um))
            elif it == "friend" and self.classes:
                f = r.choice(self.classes)
                if f.key == "union":
                    body.append("%sfriend union ::%s;" % (in_, f.name))
                else:
                    body.append("%sfriend %s ::%s;" % (in_, f.key, f.name))
            else:
                body.append("%s%s x%s_%d;" % (in_, self.scalar().spell, name.lower(), idx))
        # constructors must be accessible: make sure the ctor section is public
        body = self.fix_ctor_access(body, name, indent, key)
        lines += body
        lines.append("%s}%s;" % (indent, ""))
        for acc, b in bases:
            maxal = max(maxal, b.align)
        if align and maxal > c.align:
            c.align = maxal
            lines[0] = lines[0].replace(align, " alignas(%d)" % maxal)
        c.align = max(c.align, maxal)
        c.abstract = bool(c.pure)
        if c.polymorphic:
            c.trivial = False
        if not hasattr(c, "own_virt"):
            c.own_virt = set()
        if key == "union":
            # a union's members must all be trivial for it to be usable
            pass
        return lines, c

    def fix_ctor_access(self, body, name, indent, key):
        """Put a 'public:' before every constructor/destructor line and restore after."""
        out = []
        cur = "private" if key == "class" else "public"
        for ln in body:
            s = ln.strip()
            if s in ("public:", "protected:", "private:") and ln == indent + s:
                cur = s[:-1]
                out.append(ln)
                continue
            if s == "":
                continue
            if ln == indent + "\t" + s and (s.startswith(name + "(") or s.startswith("explicit " + name + "(") or
                    s.startswith("~" + name) or s.startswith("virtual ~" + name)) and cur != "public":
                out.append("%spublic:" % indent)
                out.append(ln)
                out.append("%s%s:" % (indent, cur))
                continue
            out.append(ln)
        return out

    # ---------------------------------------------------------------- emit
    def run(self):
        r = self.r
        self.gvars = {}
        o = self.out
        o.append("// generated by gen_cxx.py seed %d" % self.seed)
        for n, src, *_ in TYPEDEFS:
            o.append("typedef %s %s;" % (src, n))
        # namespaces with some classes/enums
        for i in range(r.randint(0, 2)):
            ns = self.uid("ns")
            o.append("namespace %s {" % ns)
            inner = None
            if self.chance(0.3):
                inner = self.uid("in")
                o.append("namespace %s {" % inner)
            q = ns + "::" + (inner + "::" if inner else "")
            for j in range(r.randint(1, 2)):
                if self.chance(0.4):
                    el, et = self.gen_enum("", qual=q)
                    o += el
                    self.enums.append(et)
                else:
                    cl, cc = self.gen_class("", top=False, qual=q, depth=1,
                                            key=r.choice(["struct", "class"]))
                    o += cl
                    if not cc.abstract:
                        self.ns_classes.append(cc)
            if inner:
                o.append("}")
            o.append("}")
        nitems = r.randint(4, 12)
        for i in range(nitems):
            k = r.randrange(12)
            if k < 2:
                el, et = self.gen_enum()
                o += el
                self.enums.append(et)
                g = self.uid("g_e")
                self.globals.append("%s %s;" % (et.spell, g))
            elif k < 3 and len(self.templates) < 3:
                self.gen_template()
            elif k < 4 and self.templates:
                t = self.instantiate()
                if t:
                    self.tpl_insts.append(t)
                    g = self.uid("g_ti")
                    self.globals.append("%s %s;" % (t.spell, g))
            elif k < 5 and self.chance(0.5):
                # empty-base chain / size-1 bases
                e0 = Cls(self.uid("Empty"), "struct")
                o.append("struct %s {};" % e0.name)
                self.register(e0)
                prev = e0
                for j in range(r.randint(0, 2)):
                    e1 = Cls(self.uid("Empty"), "struct")
                    e1.bases = [("", prev)]
                    e1.ancestors = [prev] + prev.ancestors
                    if self.chance(0.3):
                        o.append("struct %s : %s { char c; };" % (e1.name, prev.name))
                    else:
                        o.append("struct %s : %s {};" % (e1.name, prev.name))
                    self.register(e1)
                    prev = e1
            else:
                if self.chance(0.1):
                    pk = r.choice([1, 2, 4])
                    o.append("#pragma pack(push, %d)" % pk)
                    self.in_pragma = True
                    cl, cc = self.gen_class()
                    self.in_pragma = False
                    o += cl
                    o.append("#pragma pack(pop)")
                else:
                    cl, cc = self.gen_class()
                    o += cl
                self.register(cc)
        # aliases of classes
        for c in list(self.classes):
            if c.key != "union" and not c.abstract and self.chance(0.15):
                a = self.uid("Alias")
                if self.chance(0.5):
                    o.append("typedef %s %s %s;" % (c.key, c.name, a))
                else:
                    o.append("using %s = %s;" % (a, c.name))
                self.globals.append("%s g_%s;" % (a, a))
        o[1 + len(TYPEDEFS):1 + len(TYPEDEFS)] = self.reftgt_defs
        o += self.post
        o += self.globals
        # main
        m = ["int main()", "{", "\tvolatile long s = 0;"]
        for c in self.classes:
            g = self.gvars.get(c.name)
            for mt in c.methods:
                mname, acc, ret, ps, const, kind = mt
                if kind == "tmpl":
                    if g:
                        m.append("\ts += %s.%s<int>(3);" % (g, mname))
                    continue
                args = self.args_for(ps)
                if args is None:
                    continue
                if kind == "static":
                    call = "%s::%s(%s)" % (c.name, mname, args)
                elif g:
                    if mname == "operator()":
                        call = "%s(%s)" % (g, args)
                    else:
                        call = "%s.%s(%s)" % (g, mname, args)
                else:
                    continue
                if ret in ("void",) or ret.endswith("&"):
                    m.append("\t%s;" % call)
                elif ret == "const char *":
                    m.append("\ts += %s[0];" % call)
                else:
                    m.append("\ts += (long)%s;" % call)
            if g:
                for d in c.pubdata:
                    m.append("\ts += (long)%s.%s;" % (g, d))
            for st in c.statics:
                m.append("\ts += (long)%s::%s;" % (c.name, st))
            if g and c.polymorphic:
                for acc, b in c.bases:
                    if acc == "public" or (acc == "" and c.key == "struct"):
                        if c.ancestors.count(b) == 1 and b.polymorphic:
                            m.append("\t{ %s *pb = &%s; s += (long)sizeof(*pb); }" % (b.name, g))
        for g in self.ref_targets.values():
            m.append("\ts += (long)%s;" % g)
        m.append("\treturn (int)(s & 1);")
        m.append("}")
        o += m
        # pick the -E classes
        cands = [c for c in self.classes if c.key != "union" and c.name in self.gvars]
        cands.sort(key=lambda c: -(len(c.bases) * 3 + len(c.methods)))
        ex = [c.name for c in cands[:2]]
        if not ex and self.classes:
            ex = [self.classes[-1].name]
        return "// EXPAND: %s\n" % " ".join(ex) + "\n".join(o) + "\n"

    def register(self, c):
        if not hasattr(c, "final"):
            c.final = False
        if not hasattr(c, "own_virt"):
            c.own_virt = set()
        self.classes.append(c)
        if not c.abstract and self.chance(0.85):
            g = "g_" + c.name
            self.gvars[c.name] = g
            self.globals.append("%s %s;" % (c.name, g))
        elif c.abstract:
            self.globals.append("%s *gp_%s;" % (c.name, c.name))


def main():
    if not ARGS or len(ARGS) > 2:
        sys.exit("usage: gen_cxx.py SEED [OUT.cc] [--all]")
    seed = int(ARGS[0])
    src = Gen(seed).run()
    if len(ARGS) > 1:
        with open(ARGS[1], "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)


if __name__ == "__main__":
    main()
