#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The records t2006 gives pahole --prettify: python3 data.py DIR writes
them there (d1: every scalar kind of t1.c; d4: a file header, a gap and
records of t4.c; the others small inputs of t2, t3, t5 and t7)."""
import os
import struct
import sys


def d1():
    def rec(i, ui, c, sc, uc, sh, ush, l, ul, ll, name, bts, arr, ins, un, col, p, f, d, bfword, ins2):
        b = bytearray(112)
        struct.pack_into('<iIbbB', b, 0, i, ui, c, sc, uc)
        b[11] = 0xAA
        struct.pack_into('<hHqQq', b, 12, sh, ush, l, ul, ll)
        b[40:48] = name
        b[48:51] = bts
        b[51] = 0xBB
        struct.pack_into('<ii', b, 52, *arr)
        struct.pack_into('<hB', b, 60, *ins); b[63]=0xCC
        b[64:68] = un
        struct.pack_into('<iQf', b, 68, col, p, f)
        b[84:88] = b'\xdd'*4
        struct.pack_into('<d', b, 88, d)
        struct.pack_into('<H', b, 96, bfword)
        struct.pack_into('<hBxhBx', b, 98, *ins2)
        b[106:112] = b'\xee'*6
        return bytes(b)
    r1 = rec(1, 2, 65, -3, 200, -4, 65535, -5, 2**64-1, -6, b'hello\0zz', b'\x01\x02\xff', (7,-8), (-9, 250), b'\x01\x00\x00\x00', 5, 0xdeadbeef, 1.5, 2.25, (3 | (17<<3) | (0xF<<8)), (11,12,13,14))
    r2 = rec(-2147483648, 4294967295, -1, 127, 0, 32767, 0, 2**63-1, 0, -2**63, b'abcdefgh', b'\x00\x00\x00', (0,0), (0,0), b'\xff\xff\xff\xff', -1, 0, -0.0, 1e300, (7|(31<<3)|(0x8<<8)), (0,0,0,0))
    r3 = rec(3, 3, 0, 0, 0, 0, 0, 0, 0, 0, b'\0'*8, b'\0'*3, (0,0), (0,0), b'\0'*4, 7, 0, 0, 0, 0, (0,0,0,0))
    return r1 + r2 + r3


def d4():
    def rec(t, misc, size, payload=b''):
        return struct.pack('<IHH', t, misc, size) + payload
    recs = [
      rec(1, 0, 12, struct.pack('<i', -7)),           # alpha
      rec(2, 1, 16, b'beta\0\0\0\0'),                   # beta
      rec(64, 2, 16, struct.pack('<q', 123456789)),     # user delta
      rec(9, 3, 8),                                     # unknown type 9
      rec(3, 4, 8),                                     # gamma (typedef only)
      rec(65, 5, 12, b'\xaa\xbb\xcc\xdd'),              # USER_EPS no struct
      rec(2, 6, 16, b'second\0\0'),                     # beta again
    ]
    data = b''.join(recs)
    hsize = 48
    pad = b'\xee' * 8   # gap between header and data
    doff = hsize + len(pad)
    hdr = struct.pack('<IIQQQQiI', 0x50414831, 7, doff, len(data), 0, 0, -5, 0x80000000)
    assert len(hdr) == hsize, len(hdr)
    return hdr + pad, data


RAW = {
    'd2.bin': bytes.fromhex('01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3dae1e8eff6fd040b121920272e353c434a51585f666d747b828990979ea5acb3bac1c8cfd6dde4ebf2f900070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cbd2d9e0e7eef5fc030a'),
    'd3.bin': bytes.fromhex('0102030405060708'),
    'd5.bin': bytes.fromhex('0c000100ffffffff0200000004000200080001006300000010000200050000000600000007000000'),
    'd5b.bin': bytes.fromhex('a53c7f00ffffffff0f1e2d3c4b5a6978ffffffffffffffff'),
    'd5s.bin': bytes.fromhex('0668656c6c6f03616201096162636465666768'),
    'd7.bin': bytes.fromhex('6162006364656667680000ffffffff0300000000000000000000000000f03f0102000001000000000000000000000005050505050505050505050505050505ff01feff00000000000000000000000000'),
}


def main():
    d = sys.argv[1]
    files = dict(RAW)
    files['d1.bin'] = d1()
    files['d1_trunc.bin'] = files['d1.bin'][:224 + 50]
    head, data = d4()
    files['d4.bin'] = head + data
    files['d4recs.bin'] = data
    files['d2s.bin'] = files['d2.bin'][:100]
    files['d4h.bin'] = files['d4.bin'][:20]
    files['d4t.bin'] = files['d4.bin'][:50]
    files['empty.bin'] = b''
    for name, b in files.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(b)


if __name__ == '__main__':
    main()
