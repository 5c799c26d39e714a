#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Upstream's btfdiff idea: `pahole -F btf` of our BTF of a file and
# `pahole -F dwarf` of the same file print the same for every type BTF can
# express. Run on every C fixture build and on the corpus vmlinux (encoded
# with Debian's 6.1 flags, as t6070).
#
# Both sides run with --suppress_aligned_attribute --suppress_packed (as
# upstream's btfdiff script: BTF has no alignment, so pahole infers it). The
# options upstream's script adds that our pahole lacks are replaced by
# documented rules applied to the DWARF text (docs/compat.md, "pahole -F
# btf against -F dwarf"):
#   --sort                  types are compared as a multiset keyed by their
#                           first line ("struct foo {"), not by order;
#   --flat_arrays           a member "T name[A][B]...;" reads as
#                           "T name[A*B*...];" (BTF keeps one flat ARRAY),
#                           the name column re-padded as pahole pads it;
#   --suppress_force_paddings  the "/* Force padding: */" group of unnamed
#                           bit-fields (":32") and its blank line are dropped
#                           (pahole's encoder drops unnamed bit-fields);
#   --show_private_classes  types printed only from BTF are allowed when
#                           listed (a struct defined inside a function or
#                           another type: DWARF knows it is not top level);
#   (1.24, clang)           a nested type definition printed inside its
#                           parent (an indented "struct {" / "union {" block
#                           closing with a bare "};", not a member) and one
#                           blank line after it are dropped: BTF has no
#                           nesting.
# C++ builds are not compared: classes, references, templates and
# namespaces have no BTF form (docs/btf.md).
#
# tests/compat/btf-vs-dwarf-print.txt lists the differences that remain,
# inherent to BTF (or known encoder bugs, id BUG*), one a line:
#   ID CASE-GLOB KIND TYPE...   KIND: only-btf, only-dwarf or differs
# An unlisted difference fails; so does a listed one seen in no case (of
# the cases that ran: vmlinux lines need the corpus).
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3
OURS="$D2B_BUILD/pahole"
[ -x "$OURS" ] || d2b_fail "no $OURS"
LIST=$D2B_SRC/tests/compat/btf-vs-dwarf-print.txt
[ -f "$LIST" ] || d2b_fail "no $LIST"
tmp=$(d2b_tmpdir)

# compare.py DIR CASE...: for each CASE, DIR/CASE.d (DWARF text) against
# DIR/CASE.b (BTF text); one line per difference, "CASE<TAB>KIND<TAB>TYPE",
# then "#<TAB>" diff lines for the log.
cat >"$tmp/compare.py" <<'EOF'
import collections, difflib, re, sys

ARRAY = re.compile(r'^(\t+.*[ *])([A-Za-z_]\w*)((?:\[\d+\]){2,});( +)(/\*.*)$')
PAD_BITFIELD = re.compile(r'^\t+\S.* :\d+;$')
NESTED = re.compile(r'^(\t+)(?:struct|union) \{$')

def flat_array(line):
    m = ARRAY.match(line)
    if not m:
        return line
    n = 1
    for dim in re.findall(r'\d+', m.group(3)):
        n *= int(dim)
    new = '%s[%d];' % (m.group(2), n)
    return m.group(1) + new + ' ' * max(1, 22 - len(new)) + m.group(5)

def dwarf_rules(lines):
    out, i = [], 0
    while i < len(lines):
        l = lines[i]
        if l == '\t/* Force padding: */':
            i += 1
            while i < len(lines) and PAD_BITFIELD.match(lines[i]):
                i += 1
            if i < len(lines) and lines[i] == '':
                i += 1
            continue
        m = NESTED.match(l)
        if m:
            close = m.group(1) + '}'
            j = i + 1
            while j < len(lines) and not lines[j].startswith(close):
                j += 1
            if j < len(lines) and lines[j] == close + ';':
                i = j + 1
                if i < len(lines) and lines[i] == '':
                    i += 1
                continue
        out.append(flat_array(l))
        i += 1
    return out

def types(path, dwarf):
    found = collections.defaultdict(list)
    cur = None
    with open(path, errors='replace') as f:
        for l in f:
            l = l.rstrip('\n')
            if cur is None:
                if l.endswith('{') and not l.startswith('\t'):
                    cur = [l]
                elif l:
                    found['text outside types'].append(l)
                continue
            cur.append(l)
            if l.startswith('}'):
                body = dwarf_rules(cur) if dwarf else cur
                found[cur[0][:-2]].append('\n'.join(body))
                cur = None
    return found

for case in sys.argv[2:]:
    base = sys.argv[1] + '/' + case
    d, b = types(base + '.d', True), types(base + '.b', False)
    for key in sorted(set(d) | set(b)):
        if key not in b:
            print('%s\tonly-dwarf\t%s' % (case, key))
        elif key not in d:
            print('%s\tonly-btf\t%s' % (case, key))
        elif sorted(d[key]) != sorted(b[key]):
            print('%s\tdiffers\t%s' % (case, key))
            x, y = sorted(d[key])[0].split('\n'), sorted(b[key])[0].split('\n')
            for line in list(difflib.unified_diff(x, y, lineterm='', n=0))[2:10]:
                print('#\t' + line)
EOF

# save CASE FILE BTF: the two texts, compared later by compare.py (one
# python run for all cases).
mkdir -p "$tmp/cases"
cases=()
save() {
	local opts=(--suppress_aligned_attribute --suppress_packed)
	"$OURS" -F dwarf "${opts[@]}" "$2" >"$tmp/cases/$1.d" 2>&1 || { echo "$1	error	pahole -F dwarf failed"; return; }
	"$OURS" -F btf "${opts[@]}" "$3" >"$tmp/cases/$1.b" 2>&1 || { echo "$1	error	pahole -F btf failed"; return; }
	cases+=("$1")
}

: >"$tmp/all"
fx=$(d2b_fixtures) || d2b_fail "fixtures"
for f in $fx; do
	name=$(basename "$f")
	case $name in cxx_*|pahole_cxx*) continue ;; esac
	"$OURS" --btf_encode_detached="$tmp/$name.btf" "$f" >/dev/null 2>&1 ||
		{ echo "$name	error	encoding failed" >>"$tmp/all"; continue; }
	save "$name" "$f" "$tmp/$name.btf" >>"$tmp/all"
	rm -f "$tmp/$name.btf"
done
corpus=
if corpus=$(d2b_corpus); then
	"$OURS" -j2 --btf_gen_floats --lang_exclude=rust \
		--btf_encode_detached="$tmp/vmlinux.btf" "$corpus/vmlinux" >/dev/null 2>&1 ||
		echo "vmlinux	error	encoding failed" >>"$tmp/all"
	[ -f "$tmp/vmlinux.btf" ] && save vmlinux "$corpus/vmlinux" "$tmp/vmlinux.btf" >>"$tmp/all"
else
	echo "note: no corpus, vmlinux not checked"
fi

[ ${#cases[@]} -gt 50 ] || d2b_fail "only ${#cases[@]} comparisons ran"
python3 "$tmp/compare.py" "$tmp/cases" "${cases[@]}" >>"$tmp/all" || d2b_fail "compare.py failed"
t=$(cat "$tmp"/cases/*.b | grep -c '^[a-z].* {$')
[ "$t" -gt 7000 ] || [ -z "$corpus" ] || d2b_fail "only $t types printed from BTF"

# Match the differences against the list.
rc=0
printf '%s\n' "${cases[@]}" >"$tmp/cases.list"
python3 - "$LIST" "$tmp/all" "$tmp/cases.list" <<'EOF' || rc=$?
import fnmatch, sys
listed = []
for line in open(sys.argv[1]):
    f = line.split(None, 3)
    if not f or f[0].startswith('#'):
        continue
    if len(f) < 4:
        sys.exit('FAIL: bad line in %s: %s' % (sys.argv[1], line.strip()))
    listed.append([f[0], f[1], f[2], f[3].strip(), 0])
entries = []
for line in open(sys.argv[2]):
    line = line.rstrip('\n')
    if line.startswith('#\t'):
        if entries:
            entries[-1][1].append(line[2:])
    else:
        entries.append((line, []))
bad = 0
for line, diff in entries:
    case, kind, key = line.split('\t', 2)
    for l in listed:
        if l[2] == kind and l[3] == key and fnmatch.fnmatchcase(case, l[1]):
            l[4] += 1
            break
    else:
        bad += 1
        print('FAIL: %s: %s %s (not in %s)' % (case, kind, key, sys.argv[1]))
        for d in diff:
            print('\t' + d)
ran = open(sys.argv[3]).read().split()
for l in listed:
    # a line about cases that did not run (no corpus) is not required
    if l[4] == 0 and any(fnmatch.fnmatchcase(c, l[1]) for c in ran):
        bad += 1
        print('FAIL: listed but seen nowhere: %s %s %s %s' % tuple(l[:4]))
if bad:
    print('%d failures' % bad)
    sys.exit(1)
print('%d differences, all listed' % len(entries))
EOF
[ $rc = 0 ] || d2b_fail "BTF and DWARF print differently"
echo "${#cases[@]} comparisons, $t types printed from BTF"
