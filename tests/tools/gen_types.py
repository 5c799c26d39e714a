#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Random C type declarations for differential tests (t2040-random-types.sh).

    gen_types.py SEED [--unit N]

prints one C11/GNU C translation unit to stdout, the same bytes for the
same SEED and unit on every run and every python3 (standard library only;
random.Random(SEED), no set or hash order). It declares, in an order C
accepts:

  - structs and unions: members of every type below, nested named struct
    definitions, anonymous struct and union members, members of anonymous
    struct types (objects, arrays, pointers), bit-fields of 1 to 64 bits
    (signed, unsigned, _Bool, enum and typedef'd storage units, typedefs
    of reduced alignment included), unnamed and zero-width ":0"
    bit-fields, packed structs and members, aligned structs, members and
    _Alignas, flexible and zero-length array members, empty structs
    (GNU), self-referential and mutually referential structs (through
    forward declarations), structs only ever declared (used via pointer),
    structs defined inside functions;
  - enums: small, negative, 64-bit values (signed and unsigned), aliases,
    packed enums, anonymous and typedef'd enums, enum bit-fields;
  - typedef chains (of base types, qualified types, void, pointers,
    arrays, function types, anonymous or tagged structs/unions/enums),
    aligned typedefs, GNU vector types (typedefs and members);
  - const, volatile and restrict (restrict on pointers only);
  - arrays (up to three dimensions), pointers to arrays, arrays of
    pointers, function pointers with prototypes, varargs and unprototyped
    (and returning function pointers);
  - one global variable of each named type, globals of some random type
    expressions and of anonymous struct types, and functions taking
    pointers to the types (their parameters are all used, so optimised
    builds keep their locations).

With --more-funcs, more varied functions follow (for pfunct): static,
static inline, noinline static and extern ones, K&R definitions, struct
and union parameters and returns by value, function pointer parameters and returns,
varargs, and declarations (unnamed parameters) of the other unit's extern
functions, all called from uN_call_all(). They come after the other
functions, so the rest of the output is the same bytes as without it.
They are not in t2040's default run (their BTF FUNCs differ on purpose,
B1/M1). gcc may add notes (not warnings) on the ABI of over-aligned
structs passed by value.

The last line names a big struct for `pahole -E -C`: /* expand: NAME */.

With --unit N (default 1) the types are the same (the same random stream),
the globals and functions get the prefix "uN_" and only unit 1 has main():
units 1 and 2 of one seed link into one executable of two CUs sharing
the types, but for one struct in some seeds, which unit 2 lays out with
one more member (C allows that across units).

Left out on purpose (docs/compat.md): _Atomic (P1: pahole 1.24 cannot
print it, and its -J fails on it), btf_type_tag/btf_decl_tag (P2, P5),
_Complex (1.24's -J fails on it), C++, struct parameters passed by value
and static functions (their BTF FUNC selection differs on purpose, B1/M1:
register usage checks and compiler clones); few double parameters (in a
register at -O2 they are "unexpected register usage" for upstream's FUNC
rules). The output compiles without warnings with gcc 12 and clang 14 at
-Wall (gcc may add a note on packed bit-fields moved in gcc 4.4).
"""
import argparse
import random
import re
import sys

# name, bits (for bit-fields; None: no bit-fields), alignment
INTS = [
    ('char', 8, 1), ('signed char', 8, 1), ('unsigned char', 8, 1),
    ('short', 16, 2), ('unsigned short', 16, 2), ('short int', 16, 2),
    ('int', 32, 4), ('unsigned int', 32, 4), ('unsigned', 32, 4),
    ('signed', 32, 4), ('long', 64, 8), ('unsigned long', 64, 8),
    ('long unsigned int', 64, 8), ('long long', 64, 8),
    ('unsigned long long', 64, 8), ('_Bool', 1, 1),
    ('uint8_t', 8, 1), ('int16_t', 16, 2), ('uint32_t', 32, 4),
    ('int64_t', 64, 8), ('size_t', 64, 8), ('ptrdiff_t', 64, 8),
]
OTHERS = [
    ('float', None, 4), ('double', None, 8), ('long double', None, 16),
    ('__int128', None, 16), ('unsigned __int128', None, 16),
]
ALIGNS = [1, 2, 4, 8, 16, 32, 64]
UNNAMED_BITFIELD = re.compile(r'^\s*[^:]* :\d+;$')


class Name:
    """A type spelled by a name: a base type, a typedef or a tag."""

    def __init__(self, text, kind, info=None, quals=()):
        self.text = text
        self.kind = kind  # base, typedef, struct, union, enum, void
        self.info = info  # base: (bits, align); typedef: Typedef; tag: Tag
        self.quals = tuple(quals)


class Ptr:
    def __init__(self, to, quals=()):
        self.to = to
        self.quals = tuple(quals)


class Arr:
    def __init__(self, elem, n):
        self.elem = elem
        self.n = n  # None: flexible array member


class Func:
    def __init__(self, ret, params, varargs=False, proto=True):
        self.ret = ret
        self.params = params
        self.varargs = varargs
        self.proto = proto


class Tag:
    def __init__(self, kind, name):
        self.kind = kind  # struct, union, enum
        self.name = name
        self.defined = False
        self.in_progress = False
        self.has_fam = False
        self.enum_bits = 0  # enum: bits a bit-field needs for every value
        self.enum_size = 4


class Typedef:
    def __init__(self, name, under):
        self.name = name
        self.under = under
        self.realigned = False  # __attribute__((aligned(N))) on it


def realigned(t):
    """Whether a typedef on T's chain carries its own alignment."""
    while isinstance(t, Name) and t.kind == 'typedef':
        if t.info.realigned:
            return True
        t = t.info.under
    return False


def declare(t, inner=''):
    """The C declaration of INNER as type T (abstract if INNER is '')."""
    if isinstance(t, Name):
        q = ' '.join(t.quals)
        s = (q + ' ' if q else '') + t.text
        return s + (' ' + inner if inner else '')
    if isinstance(t, Ptr):
        q = ' '.join(t.quals)
        s = '*' + q + (' ' if q and inner else '') + inner
        if isinstance(t.to, (Arr, Func)):
            s = '(' + s + ')'
        return declare(t.to, s)
    if isinstance(t, Arr):
        return declare(t.elem, inner + '[%s]' % ('' if t.n is None else t.n))
    if isinstance(t, Func):
        if not t.proto:
            p = ''
        elif not t.params:
            p = 'void'
        else:
            p = ', '.join(declare(x) for x in t.params)
            if t.varargs:
                p += ', ...'
        return declare(t.ret, inner + '(' + p + ')')
    raise TypeError(t)


def strip(t):
    """T with its typedefs looked through (qualifiers dropped)."""
    while isinstance(t, Name) and t.kind == 'typedef':
        t = t.info.under
    return t


def complete(t):
    t = strip(t)
    if isinstance(t, Name):
        if t.kind == 'void':
            return False
        if t.kind in ('struct', 'union', 'enum'):
            return t.info.defined
        return True
    if isinstance(t, Ptr):
        return True
    if isinstance(t, Arr):
        return t.n is not None and complete(t.elem)
    return False


def has_fam(t):
    t = strip(t)
    if isinstance(t, Name) and t.kind in ('struct', 'union'):
        return t.info.has_fam
    if isinstance(t, Arr):
        return has_fam(t.elem)
    return False


def int_bits(t):
    """Bits of an integer type usable as a bit-field (None: not one)."""
    t = strip(t)
    if isinstance(t, Name):
        if t.kind == 'base' and t.info[0] is not None:
            return t.info[0]
        if t.kind == 'enum' and t.info.defined:
            return t.info.enum_size * 8
    return None


class Gen:
    def __init__(self, seed, unit, more_funcs=False):
        self.r = random.Random(seed)
        self.seed = seed
        self.unit = unit
        self.more_funcs = more_funcs
        self.out = []
        self.n = 0
        self.tags = []  # every Tag declared so far
        self.typedefs = []  # Name(kind=typedef) usable so far
        self.globals = []  # (name, type) of the named types, for the globals
        self.expand = None  # a struct for pahole -E -C
        self.variant = None  # the struct that unit 2 lays out otherwise
        self.last_fam = False

    def uniq(self, prefix):
        self.n += 1
        return '%s%d' % (prefix, self.n)

    def chance(self, p):
        return self.r.random() < p

    def emit(self, line):
        self.out.append(line)

    # ---- types -------------------------------------------------------

    def base(self, ints_only=False):
        pool = INTS if ints_only or self.chance(0.8) else OTHERS
        text, bits, align = self.r.choice(pool)
        return Name(text, 'base', (bits, align))

    def quals(self, p=0.15):
        q = []
        if self.chance(p):
            q.append('const')
        if self.chance(p / 2):
            q.append('volatile')
        return q

    def tag_ref(self, kinds, need_complete):
        pool = [t for t in self.tags if t.kind in kinds and
                (t.defined or not need_complete) and
                not (need_complete and t.has_fam)]
        if not pool:
            return None
        t = self.r.choice(pool)
        return Name('%s %s' % (t.kind, t.name), t.kind, t)

    def typedef_ref(self, need_complete):
        pool = [t for t in self.typedefs
                if not need_complete or (complete(t) and not has_fam(t))]
        if not pool:
            return None
        return self.r.choice(pool)

    def with_quals(self, t, q):
        # (no qualified function types: C leaves them undefined)
        if isinstance(t, Name) and not isinstance(strip(t), Func):
            return Name(t.text, t.kind, t.info, tuple(t.quals) + tuple(
                x for x in q if x not in t.quals))
        return t

    def rand_type(self, depth=0):
        """A complete object type (no flexible array inside)."""
        while True:
            w = self.r.random()
            if w < 0.30 or depth > 2:
                t = self.base()
            elif w < 0.45:
                t = self.typedef_ref(True)
            elif w < 0.65:
                t = self.tag_ref(('struct', 'union', 'enum'), True)
            elif w < 0.82:
                t = self.rand_ptr(depth + 1)
            elif w < 0.93:
                t = self.rand_array(depth + 1)
            else:
                t = Ptr(self.rand_func(depth + 1), self.quals(0.1))
            if t is None:
                continue
            if isinstance(t, Name) and self.chance(0.15):
                t = self.with_quals(t, self.quals(0.6))
            return t

    def rand_pointee(self, depth):
        w = self.r.random()
        if w < 0.12:
            return Name('void', 'void', None, self.quals(0.3))
        if w < 0.35:
            t = self.tag_ref(('struct', 'union'), False)
            if t is not None:
                return self.with_quals(t, self.quals(0.25))
        if w < 0.4:
            t = self.typedef_ref(False)
            if t is not None:
                return t
        if w < 0.45 and depth < 3:
            return self.rand_func(depth + 1)
        if w < 0.5 and depth < 3:
            return self.rand_array(depth + 1)
        if w < 0.6 and depth < 3:
            return self.rand_ptr(depth + 1)
        t = self.rand_type(depth + 1)
        if isinstance(t, Name) and self.chance(0.2):
            t = self.with_quals(t, ['const'])
        return t

    def rand_ptr(self, depth):
        to = self.rand_pointee(depth)
        q = self.quals(0.1)
        # restrict: only on pointers to object types
        if not isinstance(strip(to), Func) and self.chance(0.1):
            q.append('restrict')
        return Ptr(to, q)

    def rand_array(self, depth):
        dims = self.r.choice([1, 1, 1, 2, 2, 3])
        elem = self.rand_type(depth + 1)
        if isinstance(elem, Arr):
            dims = 1
        t = elem
        for _ in range(dims):
            t = Arr(t, self.r.choice([1, 2, 3, 4, 5, 7, 8, 16]))
        return t

    def rand_param(self, depth):
        w = self.r.random()
        if w < 0.55:
            return self.rand_ptr(depth + 1)
        if w < 0.85:
            return self.base(ints_only=self.chance(0.8))
        t = self.typedef_ref(True)
        if t is not None and isinstance(strip(t), (Name, Ptr)) and \
                not (isinstance(strip(t), Name) and
                     strip(t).kind in ('struct', 'union', 'vector')):
            return t
        return self.rand_ptr(depth + 1)

    def rand_func(self, depth):
        """A function type: prototyped, varargs or unprototyped."""
        w = self.r.random()
        if w < 0.25:
            ret = Name('void', 'void')
        elif w < 0.6:
            ret = self.base()
        elif w < 0.75:
            ret = self.tag_ref(('enum',), True) or self.base(True)
        else:
            ret = self.rand_ptr(depth + 1)
        if self.chance(0.08):
            return Func(ret, [], proto=False)
        n = self.r.choice([0, 1, 1, 2, 2, 3, 4])
        params = [self.rand_param(depth + 1) for _ in range(n)]
        varargs = n > 0 and self.chance(0.2)
        return Func(ret, params, varargs)

    # ---- declarations ------------------------------------------------

    def attr_aligned(self, lo=1):
        return '__attribute__((aligned(%d)))' % self.r.choice(
            [a for a in ALIGNS if a >= lo])

    def gen_enum(self, name=None, typedef=None):
        tag = Tag('enum', name)
        kind = self.r.choice(['seq', 'seq', 'neg', 'big', 'ubig', 'alias'])
        n = self.r.randint(1, 7)
        prefix = (name or typedef or self.uniq('anon_e')).upper()
        vals, lines = [], []
        if kind == 'seq':
            for i in range(n):
                lines.append('%s_%d' % (prefix, i))
                vals.append(i)
        else:
            used = []
            for i in range(n):
                if kind == 'neg':
                    v = self.r.choice([self.r.randint(-300, 300),
                                       -self.r.randint(1, 2 ** 31),
                                       self.r.randint(0, 2 ** 31 - 1)])
                elif kind == 'big':
                    v = self.r.choice([self.r.randint(-2 ** 63, -2 ** 31 - 1),
                                       self.r.randint(2 ** 32, 2 ** 63 - 1),
                                       self.r.randint(-5, 5)])
                elif kind == 'ubig':
                    v = self.r.choice([self.r.randint(2 ** 63, 2 ** 64 - 1),
                                       self.r.randint(0, 100),
                                       2 ** 64 - 1, 2 ** 32])
                else:
                    v = self.r.randint(0, 20)
                if v in used and kind != 'alias':
                    continue
                used.append(v)
                if kind == 'alias' and i > 0 and self.chance(0.3):
                    lines.append('%s_%d = %s_%d' % (prefix, i, prefix, i - 1))
                    vals.append(vals[-1])
                    continue
                lines.append('%s_%d = %s' % (prefix, i, self.literal(v)))
                vals.append(v)
        lo, hi = min(vals), max(vals)
        packed = self.chance(0.2)
        if lo < -2 ** 31 or hi > 2 ** 32 - 1 or (lo < 0 and hi > 2 ** 31 - 1):
            size = 8
        elif packed and (-128 <= lo and hi <= 127 or 0 <= lo and hi <= 255):
            size = 1
        elif packed and (-32768 <= lo and hi <= 32767 or
                         0 <= lo and hi <= 65535):
            size = 2
        else:
            size = 4
        tag.enum_size = size
        tag.enum_bits = max(hi.bit_length(), (-lo - 1).bit_length()) + \
            (1 if lo < 0 else 0)
        attr = ' __attribute__((packed))' if packed else ''
        head = 'enum%s%s' % (attr, ' ' + name if name else '')
        body = '{\n' + ''.join('\t%s,\n' % l for l in lines) + '}'
        tag.defined = True
        if name:
            self.tags.append(tag)
        if typedef:
            self.emit('typedef %s %s %s;' % (head, body, typedef))
            self.add_typedef(typedef, Name('enum', 'enum', tag))
        else:
            self.emit('%s %s;' % (head, body))
            if name:
                self.globals.append(Name('enum ' + name, 'enum', tag))
        self.emit('')

    def literal(self, v):
        if v > 2 ** 63 - 1:
            return '0x%xULL' % v
        if v == -2 ** 63:
            return '(-0x7fffffffffffffffLL - 1)'
        if v < -2 ** 31 or v > 2 ** 31 - 1:
            return '%dLL' % v
        return '%d' % v

    def bitfield(self, ind):
        """One bit-field member line (named, unnamed or zero width)."""
        w = self.r.random()
        if w < 0.12:
            t = self.tag_ref(('enum',), True)
            if t is not None and t.info.enum_size <= 4:
                width = self.r.randint(max(t.info.enum_bits, 1),
                                       t.info.enum_size * 8)
                return '%s%s %s:%d;' % (ind, t.text, self.uniq('m'), width)
        if w < 0.25:
            t = self.typedef_ref(True)
            bits = int_bits(t) if t is not None else None
            # (not one of reduced alignment: gcc's DWARF 4 gives such a
            # bit-field a negative offset, which pahole 1.24 misreads by a
            # storage unit: docs/compat.md P7, the t2000 fixture
            # bitfields_underaligned)
            if bits is not None and isinstance(strip(t), Name) and \
                    strip(t).kind == 'base' and not realigned(t):
                return '%s%s %s:%d;' % (ind, declare(t), self.uniq('m'),
                                        self.r.randint(1, bits))
        t = self.base(ints_only=True)
        bits = t.info[0]
        q = ' '.join(self.quals(0.05))
        q = q + ' ' if q else ''
        if bits > 1 and self.chance(0.12):
            return '%s%s%s :0;' % (ind, q, t.text)
        width = self.r.randint(1, bits)
        if self.chance(0.08):
            return '%s%s%s :%d;' % (ind, q, t.text, width)
        return '%s%s%s %s:%d;' % (ind, q, t.text, self.uniq('m'), width)

    def member(self, ind, depth):
        """Lines of one member of a struct or union."""
        w = self.r.random()
        if w < 0.2:
            return [self.bitfield(ind)]
        if w < 0.3 and depth < 3:
            return self.aggregate(None, depth + 1, ind, anon_member=True)
        if w < 0.36 and depth < 3:
            # a named struct defined inside a struct: file scope in C
            kind = self.r.choice(['struct', 'union'])
            name = self.uniq('n' + kind[0])
            lines = self.aggregate(name, depth + 1, ind, kind=kind,
                                   member=self.uniq('m'))
            return lines
        if w < 0.4 and depth < 3:
            # a member of an anonymous type: an object, array or pointer
            m = self.r.choice(['%s', '%s', '%s[2]', '*%s', '%s[3][2]'])
            return self.aggregate(None, depth + 1, ind,
                                  member=m % self.uniq('m'))
        if w < 0.403:
            # a GNU vector member, no typedef
            elem, size = self.r.choice([('int', 4), ('float', 4),
                                        ('unsigned char', 1), ('double', 8)])
            return ['%s%s %s __attribute__((vector_size(%d)));' % (
                ind, elem, self.uniq('m'), size * self.r.choice([2, 4, 8]))]
        t = self.rand_type(depth + 1)
        m = self.uniq('m')
        attr = ''
        if self.chance(0.08):
            attr = ' ' + self.attr_aligned()
        elif self.chance(0.05) and (isinstance(t, Ptr) or (
                isinstance(t, Name) and t.kind == 'base' and t.info[1] > 1)):
            attr = ' __attribute__((packed))'
        elif self.chance(0.04) and isinstance(t, Name) and t.kind == 'base':
            a = t.info[1]
            return ['%s_Alignas(%d) %s;' % (
                ind, self.r.choice([x for x in ALIGNS if x >= a]),
                declare(t, m))]
        return ['%s%s%s;' % (ind, declare(t, m), attr)]

    def aggregate(self, name, depth, ind, kind=None, anon_member=False,
                  member=None, typedef=None, tag=None, empty=False):
        """A struct or union definition, as lines.

        NAME None: anonymous (an anonymous member if ANON_MEMBER, else
        the body of TYPEDEF or of MEMBER); MEMBER: declare a member of it."""
        kind = kind or (tag.kind if tag else
                        self.r.choice(['struct', 'struct', 'union']))
        if name and tag is None:
            tag = Tag(kind, name)
            self.tags.append(tag)
        if tag:
            tag.in_progress = True
        attrs_before, attrs_after = '', ''
        if self.chance(0.15):
            attrs_before = ' __attribute__((packed))'
        if self.chance(0.1):
            attrs_after = ' ' + self.attr_aligned()
        head = '%s%s%s {' % (kind, attrs_before, ' ' + name if name else '')
        lines = [ind + head]
        if tag is not None and tag is self.variant and self.unit == 2:
            # the same struct, another layout in unit 2 (C allows it)
            lines.append('%s\tint u2_only;' % ind)
        nmemb = 0 if empty else self.r.randint(1, 4 if depth else 9)
        named = empty  # (an empty struct is a GNU extension, of size 0)
        for _ in range(nmemb):
            ml = self.member(ind + '\t', depth)
            lines += ml
            named = named or not UNNAMED_BITFIELD.match(ml[0])
        if not named:
            # C wants a named member (and one before a flexible array)
            lines.append('%s\tint %s;' % (ind, self.uniq('m')))
        # a member that names the struct itself
        if tag and name and not empty and self.chance(0.3):
            t = Ptr(Name('%s %s' % (kind, name), kind, tag),
                    self.quals(0.2))
            if self.chance(0.3):
                t = Arr(t, self.r.choice([2, 3]))
            lines.append('%s\t%s;' % (ind, declare(t, self.uniq('m'))))
        if tag and name and not empty and self.chance(0.1):
            p = Ptr(Name('const %s %s' % (kind, name), kind, tag))
            f = Func(Name('int', 'base', (32, 4)), [p, p])
            lines.append('%s\t%s;' % (ind, declare(Ptr(f), self.uniq('m'))))
        fam = False
        if empty:
            pass
        elif kind == 'struct' and not anon_member and member is None and \
                self.chance(0.15):
            t = self.rand_type(depth + 1)
            n = None if self.chance(0.7) else 0
            lines.append('%s\t%s;' % (ind, declare(Arr(t, n),
                                                  self.uniq('m'))))
            fam = n is None
        elif self.chance(0.04):
            # a zero-length array in the middle (GNU)
            t = self.rand_type(depth + 1)
            lines.append('%s\t%s;' % (ind, declare(Arr(t, 0), self.uniq('m'))))
            lines.append('%s\tint %s;' % (ind, self.uniq('m')))
        tail = ind + '}' + attrs_after
        if member:
            tail += ' ' + member
        elif typedef:
            tail += ' ' + typedef
        lines.append(tail + ';')
        if tag:
            tag.in_progress = False
            tag.defined = True
            tag.has_fam = fam
        self.last_fam = fam
        return lines

    def add_typedef(self, name, under):
        t = Name(name, 'typedef', Typedef(name, under))
        self.typedefs.append(t)
        self.globals.append(t)
        return t


    def gen_typedef(self):
        name = self.uniq('t')
        w = self.r.random()
        if w < 0.15 and self.typedefs:
            # a chain: typedef of a typedef, maybe qualified
            under = self.with_quals(self.r.choice(self.typedefs),
                                    self.quals(0.3))
        elif w < 0.3:
            under = self.base()
            if self.chance(0.3):
                under = self.with_quals(under, self.quals(0.7))
        elif w < 0.45:
            under = self.rand_ptr(1)
        elif w < 0.55:
            under = self.rand_array(1)
        elif w < 0.65:
            f = self.rand_func(1)
            self.emit('typedef %s;' % declare(f, name))
            self.emit('')
            self.add_typedef(name, f)
            return
        elif w < 0.7:
            under = Ptr(self.rand_func(1))
        elif w < 0.72:
            under = Name('void', 'void')
        elif w < 0.75:
            # a GNU vector type: an array with DW_AT_GNU_vector
            elem, size = self.r.choice([('int', 4), ('float', 4),
                                        ('char', 1), ('long', 8),
                                        ('double', 8), ('short', 2)])
            n = self.r.choice([8, 16, 32])
            self.emit('typedef %s %s __attribute__((vector_size(%d)));'
                      % (elem, name, n))
            self.emit('')
            self.add_typedef(name, Name(elem, 'vector', (None, n)))
            return
        elif w < 0.85:
            # typedef struct [TAG] {...} NAME;
            tagname = self.uniq(self.r.choice(['s', 'u'])) \
                if self.chance(0.3) else None
            lines = self.aggregate(tagname, 0, '', typedef=name)
            lines[0] = 'typedef ' + lines[0]
            for l in lines:
                self.emit(l)
            self.emit('')
            agg = Tag(lines[0].split()[1], None)
            agg.defined = True
            agg.has_fam = self.last_fam
            self.add_typedef(name, Name(name, 'struct', agg))
            return
        elif w < 0.92:
            self.gen_enum(typedef=name)
            return
        else:
            under = self.tag_ref(('struct', 'union', 'enum'), False)
            if under is None:
                under = self.base()
        attr = ''
        if isinstance(under, Name) and under.kind == 'base' and \
                self.chance(0.15):
            # at most the size: arrays of it must stay possible
            attr = ' __attribute__((aligned(%d)))' % self.r.choice(
                [a for a in ALIGNS if a <= under.info[1]])
        self.emit('typedef %s%s;' % (declare(under, name), attr))
        self.emit('')
        self.add_typedef(name, under).info.realigned = bool(attr)

    def gen_tag(self, fwd):
        tag = fwd if fwd else None
        kind = tag.kind if tag else self.r.choice(['struct', 'struct',
                                                   'union'])
        name = tag.name if tag else self.uniq(kind[0])
        if tag is None:
            tag = Tag(kind, name)
            self.tags.append(tag)
        if self.variant is None and kind == 'struct' and self.chance(0.15):
            self.variant = tag
        empty = kind == 'struct' and self.chance(0.04)
        lines = self.aggregate(name, 0, '', kind=kind, tag=tag, empty=empty)
        if self.expand is None or (kind == 'struct' and len(lines) > len(
                self.expand[1])):
            if kind == 'struct':
                self.expand = (name, lines)
        for l in lines:
            self.emit(l)
        self.emit('')
        self.globals.append(Name('%s %s' % (kind, name), kind, tag))

    def generate(self):
        r = self.r
        self.emit('/* gen_types.py %d --unit %d: random types (t2040) */'
                  % (self.seed, self.unit))
        self.emit('#include <stddef.h>')
        self.emit('#include <stdint.h>')
        self.emit('')
        # packed structs holding over-aligned members are laid out as
        # asked; that is the point, not a mistake (gcc's note on packed
        # bit-fields moved in gcc 4.4 is no warning, and no pragma silences
        # it)
        self.emit('#if defined(__GNUC__) && !defined(__clang__)')
        self.emit('#pragma GCC diagnostic ignored "-Wpacked-not-aligned"')
        self.emit('#endif')
        self.emit('')
        fwds = []
        for _ in range(r.randint(1, 4)):
            kind = r.choice(['struct', 'struct', 'union'])
            tag = Tag(kind, self.uniq('fwd'))
            self.tags.append(tag)
            fwds.append(tag)
            self.emit('%s %s;' % (kind, tag.name))
        self.emit('')
        for _ in range(r.randint(12, 28)):
            w = r.random()
            if w < 0.15:
                self.gen_enum(name=self.uniq('e'))
            elif w < 0.4:
                self.gen_typedef()
            elif fwds and w < 0.5:
                self.gen_tag(fwds.pop(r.randrange(len(fwds))))
            else:
                self.gen_tag(None)
        # the opaque ones are used through pointers
        for tag in self.tags:
            if not tag.defined:
                self.globals.append(Name('%s %s' % (tag.kind, tag.name),
                                         tag.kind, tag))
        self.gen_uses()
        return '\n'.join(self.out) + '\n'

    def local_scope(self, gen):
        """GEN()'s lines; the tags and typedefs it declares stay local."""
        tags, typedefs = list(self.tags), list(self.typedefs)
        lines = gen()
        self.tags, self.typedefs = tags, typedefs
        return lines

    def gen_uses(self):
        r = self.r
        u = 'u%d_' % self.unit
        self.emit('/* one global of each type */')
        for i, t in enumerate(self.globals):
            if not complete(t):
                t = Ptr(t)  # declared only, or a function type
            self.emit('%s;' % declare(t, '%sg%d' % (u, i)))
        for i in range(r.randint(2, 6)):
            self.emit('%s;' % declare(self.rand_type(0), '%sx%d' % (u, i)))
        for i in range(r.randint(0, 2)):
            # a global of an anonymous struct or union type
            for l in self.local_scope(lambda: self.aggregate(
                    None, 1, '', member='%sa%d' % (u, i))):
                self.emit(l)
        self.emit('')
        self.emit('void *volatile %ssink_ptr;' % u)
        self.emit('volatile long %ssink_long;' % u)
        self.emit('volatile double %ssink_dbl;' % u)
        self.emit('')
        for i in range(r.randint(2, 6)):
            self.gen_function('%sf%d' % (u, i), u)
        if self.more_funcs:
            self.gen_more_functions(u)
        if self.unit == 1:
            self.emit('int main(void)')
            self.emit('{')
            self.emit('\treturn 0;')
            self.emit('}')
        if self.expand:
            self.emit('/* expand: %s */' % self.expand[0])

    # ---- more varied functions (--more-funcs: pfunct) ----------------

    def by_value(self):
        """(type, global name) of a complete struct or union global of
        this unit, to pass or return by value (None: there is none)."""
        pool = []
        for i, t in enumerate(self.globals):
            s = strip(t)
            if isinstance(s, Name) and s.kind in ('struct', 'union') and \
                    complete(t) and not has_fam(t):
                pool.append((t, '%sg%d' % (self.uprefix, i)))
        return self.r.choice(pool) if pool else None

    def more_param(self):
        """(type, argument expression for a call) of one parameter."""
        r = self.r
        w = r.random()
        if w < 0.2:
            bv = self.by_value()
            if bv is not None:
                return bv
        if w < 0.35:
            # a function pointer with a prototype (or varargs)
            return Ptr(self.rand_func(1)), '0'
        if w < 0.45:
            t = self.typedef_ref(True)
            s = strip(t) if t is not None else None
            if isinstance(s, Ptr):
                return t, '0'
            if isinstance(s, Name) and s.kind == 'base':
                return t, '1'
        if w < 0.7:
            t = self.base(ints_only=self.chance(0.85))
            if self.chance(0.2):
                t = self.with_quals(t, ['const'])
            return t, '1'
        if w < 0.85 and self.globals:
            return Ptr(self.with_quals(r.choice(self.globals),
                                       self.quals(0.3))), '0'
        return self.rand_ptr(1), '0'

    def more_ret(self):
        """(type, return expression) of a function's return value."""
        w = self.r.random()
        if w < 0.2:
            return Name('void', 'void'), None
        if w < 0.35:
            bv = self.by_value()
            if bv is not None:
                return bv
        if w < 0.5:
            return Ptr(self.rand_func(1)), '0'
        if w < 0.6:
            t = self.tag_ref(('enum',), True)
            if t is not None:
                return t, '0'
        if w < 0.75:
            return self.rand_ptr(1), '0'
        t = self.base(ints_only=True)
        return t, '(%s)%ssink_long' % (t.text, self.uprefix)

    def use_param(self, t, pn):
        u = self.uprefix
        s = strip(t)
        if isinstance(s, Ptr):
            return '\t%ssink_ptr = (void *)%s;' % (u, pn)
        if isinstance(s, Name) and s.kind in ('struct', 'union'):
            return '\t%stake((void *)&%s, sizeof %s);' % (u, pn, pn)
        if isinstance(s, Name) and s.kind == 'base' and s.info[0] is None:
            return '\t%ssink_dbl += %s;' % (u, pn)
        return '\t%ssink_long += (long)%s;' % (u, pn)

    def gen_more_functions(self, u):
        """Static (noinline, inline, plain) and extern functions, K&R
        definitions, struct parameters and returns by value, function
        pointer parameters and returns, varargs; calls of the other
        unit's extern functions through declarations; a caller of them
        all, so that no static function is unused."""
        r = self.r
        self.uprefix = u
        other = 'u%d_' % (3 - self.unit)
        calls, decls = [], []
        # (a struct parameter's address, kept where -Wdangling-pointer
        # does not see it; not const void *, for -Wmaybe-uninitialized
        # on padding)
        self.emit('__attribute__((noinline)) void %stake(void *p, '
                  'unsigned long n)' % u)
        self.emit('{')
        self.emit('\t%ssink_ptr = (void *)p;' % u)
        self.emit('\t%ssink_long += (long)n;' % u)
        self.emit('}')
        self.emit('')
        for i in range(r.randint(3, 8)):
            storage = r.choice(['', '', 'static ', 'static ',
                                'static inline ', 'static ',
                                '__attribute__((noinline)) static '])
            kr = storage == '' and self.chance(0.1)
            n = r.choice([0, 1, 1, 2, 2, 3, 4, 6])
            params = [self.more_param() for _ in range(n)]
            if kr:
                # (K&R: promoted types only, so a call converts nothing)
                params = [(Name(x, 'base', (b, b // 8)), '1') for x, b in
                          [r.choice([('int', 32), ('long', 64),
                                     ('unsigned', 32)]) for _ in range(n)]]
            varargs = n > 0 and not kr and self.chance(0.15)
            ret, rexpr = self.more_ret()
            name = '%sm%d' % (u, i)
            pnames = ['p%d' % k for k in range(n)]
            if kr:
                head = declare(ret, '%s(%s)' % (name, ', '.join(pnames)))
                head += ''.join('\n%s;' % declare(t, pn) for (t, _), pn in
                                zip(params, pnames))
            else:
                plist = ', '.join(declare(t, pn) for (t, _), pn in
                                  zip(params, pnames)) or 'void'
                if varargs:
                    plist += ', ...'
                head = declare(ret, '%s(%s)' % (name, plist))
            self.emit(storage + head)
            self.emit('{')
            for (t, _), pn in zip(params, pnames):
                self.emit(self.use_param(t, pn))
            if rexpr is not None:
                self.emit('\treturn %s;' % rexpr)
            self.emit('}')
            self.emit('')
            args = [a for _, a in params] + (['2'] if varargs else [])
            call = '%s(%s)' % (name, ', '.join(args))
            if storage.startswith('static') or storage.startswith('__'):
                calls.append(call)
            elif not kr:
                # the other unit declares it (no names) and calls it
                proto = ', '.join(declare(t) for t, _ in params) or 'void'
                if varargs:
                    proto += ', ...'
                decls.append('extern ' + declare(
                    ret, '%sm%d(%s)' % (other, i, proto)))
                calls.append('%sm%d(%s)' % (other, i, ', '.join(args)))
        for d in decls:
            self.emit(d + ';')
        self.emit('')
        # the caller: its own calls of the other unit's functions only in
        # the executable (an object of unit 1 alone leaves them undefined)
        self.emit('void %scall_all(void)' % u)
        self.emit('{')
        for c in calls:
            self.emit('\t(void)%s;' % c)
        self.emit('}')
        self.emit('')

    def gen_function(self, name, u):
        r = self.r
        n = r.randint(1, 5)
        params = []
        for _ in range(n):
            w = r.random()
            if w < 0.5 and self.globals:
                params.append(Ptr(r.choice(self.globals)))
            elif w < 0.76:
                params.append(self.base(ints_only=True))
            elif w < 0.8:
                # (few: at -O2 a double in a register is "unexpected
                # register usage" for upstream's FUNC rules, B1)
                params.append(Name('double', 'base', (None, 8)))
            else:
                params.append(self.rand_ptr(1))
        varargs = r.random() < 0.15
        ret = r.choice(['void', 'int', 'long', 'ptr'])
        pnames = ['p%d' % i for i in range(n)]
        plist = ', '.join(declare(t, pn) for t, pn in zip(params, pnames))
        if varargs:
            plist += ', ...'
        rtype = {'void': 'void', 'int': 'int', 'long': 'long',
                 'ptr': declare(params[0], '')}[ret]
        if '(' in rtype or '[' in rtype:
            rtype = 'void *'
        body = []
        if r.random() < 0.25:
            # a struct defined in the function: BTF has it, pahole does
            # not list it
            lines = self.local_scope(lambda: self.aggregate(
                self.uniq('l'), 1, '\t', kind='struct', member='lv'))
            lines.insert(1, '\t\tlong la;')
            body += lines
            body.append('\tlv.la = %ssink_long;' % u)
            body.append('\t%ssink_long += lv.la;' % u)
        for t, pn in zip(params, pnames):
            if isinstance(t, Ptr):
                body.append('\t%ssink_ptr = (void *)%s;' % (u, pn))
            elif t.text == 'double':
                body.append('\t%ssink_dbl += %s;' % (u, pn))
            else:
                body.append('\t%ssink_long += (long)%s;' % (u, pn))
        if ret == 'ptr':
            if rtype == 'void *':
                body.append('\treturn (void *)%s;' % pnames[0])
            else:
                body.append('\treturn %s;' % pnames[0])
        elif ret != 'void':
            body.append('\treturn (%s)%ssink_long;' % (ret, u))
        self.emit('%s %s(%s)' % (rtype, name, plist))
        self.emit('{')
        for l in body:
            self.emit(l)
        self.emit('}')
        self.emit('')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('seed', type=int)
    ap.add_argument('--unit', type=int, default=1)
    ap.add_argument('--more-funcs', action='store_true')
    a = ap.parse_args()
    sys.stdout.write(Gen(a.seed, a.unit, a.more_funcs).generate())


if __name__ == '__main__':
    main()
