#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""btf_slice.py IN.btf N OUT.btf: the first N types of a raw BTF, closed.

A seed for fuzz_btf from a big BTF (vmlinux's .BTF): types 1..N are kept,
every reference to a type past N is redirected so the result still
validates (to the first INT kept, or to void where void is allowed; a FUNC
or DECL_TAG losing its target becomes a typedef of void; a DATASEC entry
losing its VAR is dropped), and the string section is rebuilt with only
the names used. Little-endian input only.
"""
import struct
import sys


def main():
    src, n, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    data = open(src, 'rb').read()
    magic, ver, flags, hlen, toff, tlen, soff, slen = struct.unpack_from(
        '<HBBIIIII', data, 0)
    if magic != 0xeb9f:
        sys.exit('not little-endian raw BTF')
    types = data[hlen + toff:hlen + toff + tlen]
    strs = data[hlen + soff:hlen + soff + slen]
    recs = []  # (name_off, info, size_or_type, extra words / tuples)
    off = 0
    while off < len(types) and len(recs) < n:
        name, info, st = struct.unpack_from('<III', types, off)
        off += 12
        kind = (info >> 24) & 0x1f
        vlen = info & 0xffff
        extra = []
        if kind in (1, 14, 17):          # INT, VAR, DECL_TAG: one u32
            extra = [struct.unpack_from('<I', types, off)[0]]
            off += 4
        elif kind == 3:                  # ARRAY
            extra = list(struct.unpack_from('<III', types, off))
            off += 12
        elif kind in (4, 5, 15, 19):     # STRUCT, UNION, DATASEC, ENUM64
            extra = [struct.unpack_from('<III', types, off + 12 * i)
                     for i in range(vlen)]
            off += 12 * vlen
        elif kind in (6, 13):            # ENUM, FUNC_PROTO
            extra = [struct.unpack_from('<II', types, off + 8 * i)
                     for i in range(vlen)]
            off += 8 * vlen
        recs.append([name, info, st, extra])
    n = len(recs)
    kinds = [None] + [(r[1] >> 24) & 0x1f for r in recs]
    intid = next((i for i in range(1, n + 1) if kinds[i] == 1), 0)

    def ok(t, want=None):
        return t <= n and (want is None or kinds[t] in want)

    out = []
    for r in recs:
        name, info, st, extra = r
        kind = (info >> 24) & 0x1f
        if kind in (2, 8, 9, 10, 11, 18) and not ok(st):
            st = 0 if kind != 18 else intid
        elif kind == 12 and not ok(st, (13,)):
            info, st = 8 << 24, 0
        elif kind == 17 and not ok(st, (4, 5, 8, 12, 14)):
            info, st, extra = 8 << 24, 0, []
        elif kind == 14 and not ok(st):
            st = intid
        elif kind == 3:
            e, ix, nel = extra
            extra = [e if ok(e) and e else intid, ix if ok(ix) else intid, nel]
        elif kind in (4, 5):
            extra = [(a, t if ok(t) and t else intid, c) for a, t, c in extra]
        elif kind == 13:
            if not ok(st):
                st = 0
            extra = [(a, t if ok(t) else intid) for a, t in extra]
        elif kind == 15:
            extra = [e for e in extra if ok(e[0], (14,))]
            info = (info & ~0xffff) | len(extra)
        r[:] = [name, info, st, extra]
    # strings: only those used
    table = bytearray(b'\0')
    seen = {0: 0}

    def s(o):
        if o not in seen:
            end = strs.index(b'\0', o)
            seen[o] = len(table)
            table.extend(strs[o:end + 1])
        return seen[o]
    for name, info, st, extra in recs:
        kind = (info >> 24) & 0x1f
        out.append(struct.pack('<III', s(name), info, st))
        for e in extra:
            if isinstance(e, tuple):
                if kind in (4, 5, 6, 13, 19):
                    e = (s(e[0]),) + e[1:]
                out.append(struct.pack('<' + 'I' * len(e), *e))
            else:
                out.append(struct.pack('<I', e))
        if kind == 3:
            pass
    tbytes = b''.join(out)
    hdr = struct.pack('<HBBIIIII', 0xeb9f, ver, 0, 24, 0, len(tbytes),
                      len(tbytes), len(table))
    open(dst, 'wb').write(hdr + tbytes + bytes(table))


main()
