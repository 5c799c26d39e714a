#!/usr/bin/env bash
# Hostile input, reference cycles and sharing: typedef, pointer and qualifier loops, structs containing themselves by value, a nested typedef naming its anonymous struct, an exponential DAG under pahole -E.
# Every case of tests/tools/hostile.py's group 'cycles' through pahole, pahole -E,
# pahole -s, pfunct -P and load -j2: a bad file gives exit 1 and one stderr
# line naming the file (and section and offset where there is one); a file
# we can read gives exit 0 and its layout; nothing crashes or runs 20 s.
# docs/errors.md has one row per case.
. "$D2B_SRC/tests/lib.sh"
d2b_need_cmd python3
tmp=$(d2b_tmpdir)
python3 "$D2B_SRC/tests/tools/hostile.py" check cycles "$D2B" "$tmp" || d2b_fail "hostile cycles inputs"
