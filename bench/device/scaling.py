#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""How BTF encoding scales with -j: ours against pahole, one table.

    bench/device/scaling.py [--runs N] [--jobs "1 2 4 8 16"] [--pahole P]
                            [--print] [--windows "0 8 16 32"] [--out FILE]
                            DWARF2BTF VMLINUX

Runs `DWARF2BTF encode --stats --btf_gen_floats -jN
--btf_encode_detached=...` and, when --pahole is given, `P -J
--btf_gen_floats -jN --btf_encode_detached=...` for each N, alternated,
RUNS times, plus the floor (`DWARF2BTF walk`). Prints medians of wall time,
CPU time (user + sys) and peak RSS (from wait4, no /usr/bin/time needed),
the ratios to pahole, our --stats phases, and the speed-up over -j1. Checks
that our outputs are byte-identical for every -j and run.

With --print, also times printing every struct (`DWARF2BTF pahole -jN`,
the issue's `pahole vmlinux > /dev/null`) and every function
(`DWARF2BTF pfunct -jN`), RUNS times each, with pahole 1.24's `pahole`
at the first and the last -j once each (it takes seconds and GBs).

With --windows, also times ours at -j8 and at the last -j with each
`--window=N` (units encoded and not merged yet; 0: the default, 4 a
thread), RUNS times: a wider window lets a long unit stall the others
less, a narrower one encodes fewer repeats that the merge then drops.

Python's standard library only, so that it runs on a machine where nothing
can be installed (the 16-core device: see bench/device/pack.sh and
docs/performance.md, "Scaling on more cores").
"""
import argparse
import filecmp
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def measure(cmd, env=None, stdout=subprocess.DEVNULL):
    """One run: (wall s, CPU s, peak RSS KiB, stderr text, system CPU s)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=stdout, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        err.seek(0)
        text = err.read().decode(errors="replace")
    if status != 0:
        sys.exit("scaling: %s failed:\n%s" % (" ".join(cmd), text))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, text, ru.ru_stime


def concurrent_cpu(cmd, n):
    """N copies of CMD at once: the median CPU s of one (how much a core's
    own work slows when N cores stream memory at once)."""
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(n)]
    cpu = []
    for p in procs:
        _, status, ru = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit("scaling: %s failed" % " ".join(cmd))
        cpu.append(ru.ru_utime + ru.ru_stime)
    return statistics.median(cpu)


STATS = [
    ("pool wall", r"decode\+encode ([0-9.]+)s wall"),
    ("worker CPU", r"wall, ([0-9.]+)s worker CPU"),
    ("merge", r"stats: merge ([0-9.]+)s"),
    ("merge after the pool", r"after the pool ([0-9.]+)s"),
    ("functions", r", functions ([0-9.]+)s"),
    ("dedup", r"stats: dedup ([0-9.]+)s"),
    ("write", r", write ([0-9.]+)s"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("d2b")
    ap.add_argument("vmlinux")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", default="1 2 4 8 16")
    ap.add_argument("--pahole", help="pahole to compare with (with its LD_LIBRARY_PATH)")
    ap.add_argument("--libs", help="LD_LIBRARY_PATH for --pahole")
    ap.add_argument("--print", action="store_true",
                    help="also time printing every struct and every function")
    ap.add_argument("--windows", help="--window values to time at -j8 and the last -j")
    ap.add_argument("--out", help="also write the tables here")
    a = ap.parse_args()
    jobs = [int(j) for j in a.jobs.split()]
    penv = dict(os.environ)
    if a.libs:
        penv["LD_LIBRARY_PATH"] = a.libs
    res = {}  # (who, j) -> list of (wall, cpu, rss, err)
    tmp = tempfile.mkdtemp(prefix="scaling.")
    first = None
    for i in range(a.runs):
        res.setdefault(("floor", 1), []).append(measure([a.d2b, "walk", a.vmlinux]))
        for j in jobs:
            if a.pahole:
                res.setdefault(("pahole", j), []).append(measure(
                    [a.pahole, "-J", "--btf_gen_floats", "-j%d" % j,
                     "--btf_encode_detached=%s/pahole.btf" % tmp, a.vmlinux], penv))
            out = "%s/ours.%d.%d.btf" % (tmp, j, i)
            res.setdefault(("ours", j), []).append(measure(
                [a.d2b, "encode", "--stats", "--btf_gen_floats", "-j%d" % j,
                 "--btf_encode_detached=" + out, a.vmlinux]))
            if first is None:
                first = out
            elif not filecmp.cmp(first, out, shallow=False):
                sys.exit("scaling: %s and %s differ" % (first, out))
            print("run %d -j%d done" % (i + 1, j), file=sys.stderr, flush=True)

    def med(who, j, k):
        return statistics.median(r[k] for r in res[(who, j)])

    lines = []
    load = open("/proc/loadavg").read().split()[:3]
    lines.append("# %s, %d CPUs, load %s; %s; medians of %d runs" % (
        time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.cpu_count(), " ".join(load),
        os.path.basename(a.vmlinux), a.runs))
    lines.append("")
    lines.append("| -j | pahole wall s | ours wall s | ours / pahole | ours CPU s | of which system"
                 " | ours RSS MiB | pahole RSS MiB | ours speed-up over -j1"
                 " | pahole speed-up over -j1 |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    o1 = med("ours", jobs[0], 0)
    p1 = med("pahole", jobs[0], 0) if a.pahole else None
    for j in jobs:
        ow = med("ours", j, 0)
        pw = med("pahole", j, 0) if a.pahole else None
        lines.append("| %d | %s | %.2f | %s | %.2f | %.2f | %d | %s | %.2f | %s |" % (
            j, "%.2f" % pw if pw else "-", ow, "%.3f" % (ow / pw) if pw else "-",
            med("ours", j, 1), med("ours", j, 4), med("ours", j, 2) // 1024,
            "%d" % (med("pahole", j, 2) // 1024) if pw else "-", o1 / ow,
            "%.2f" % (p1 / pw) if pw else "-"))
    lines.append("| floor (walk, one core) | | %.2f | | %.2f | %.2f | %d | | | |" % (
        med("floor", 1, 0), med("floor", 1, 1), med("floor", 1, 4), med("floor", 1, 2) // 1024))
    # the floor's CPU when as many walks as the last -j run at once
    n = jobs[-1]
    lines.append("")
    lines.append("| %d walks at once: CPU s of one (median of %d rounds) | one walk alone |" % (
        n, a.runs))
    lines.append("| --- | --- |")
    lines.append("| %.3f | %.3f |" % (
        statistics.median(concurrent_cpu([a.d2b, "walk", a.vmlinux], n) for _ in range(a.runs)),
        med("floor", 1, 1)))
    lines.append("")
    lines.append("| phase (--stats, s) | " + " | ".join("-j%d" % j for j in jobs) + " |")
    lines.append("| --- | " + " | ".join("---" for _ in jobs) + " |")
    for name, rx in STATS:
        cells = []
        for j in jobs:
            vals = [float(m.group(1)) for m in
                    (re.search(rx, r[3]) for r in res[("ours", j)]) if m]
            cells.append("%.3f" % statistics.median(vals) if vals else "-")
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    # the types a worker encoded that the merge then dropped as repeats: the
    # later units in flight cannot see the earlier ones' types (the window)
    cells = []
    for j in jobs:
        vals = [v for v in (dropped_after_encoding(r[3]) for r in res[("ours", j)]) if v >= 0]
        cells.append("%d" % statistics.median(vals) if vals else "-")
    lines.append("| types encoded, then dropped as repeats | %s |" % " | ".join(cells))
    if a.windows:
        lines.append("")
        lines += window_table(a, jobs, first)
    if a.print:
        lines.append("")
        lines += print_table(a, jobs, penv)
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


def dropped_after_encoding(text):
    """The types encoded, then dropped as repeats (--stats), or -1."""
    m = re.search(r"\(([0-9]+) repeated types dropped, ([0-9]+) of them never encoded", text)
    return int(m.group(1)) - int(m.group(2)) if m else -1


def window_table(a, jobs, ref):
    """Ours at -j8 and the last -j with each --window; output checked
    against REF."""
    res = {}
    tmp = tempfile.mkdtemp(prefix="scaling-window.")
    js = sorted(set(j for j in (8, jobs[-1]) if j <= jobs[-1]))
    for i in range(a.runs):
        for j in js:
            for w in [int(x) for x in a.windows.split()]:
                out = "%s/w.btf" % tmp
                res.setdefault((j, w), []).append(measure(
                    [a.d2b, "encode", "--stats", "--btf_gen_floats", "-j%d" % j,
                     "--window=%d" % w, "--btf_encode_detached=" + out, a.vmlinux]))
                if not filecmp.cmp(ref, out, shallow=False):
                    sys.exit("scaling: --window=%d -j%d differs" % (w, j))
        print("window run %d done" % (i + 1), file=sys.stderr, flush=True)
    lines = ["| -j | --window | ours wall s | CPU s | pool wall s | merge s"
             " | types encoded, then dropped |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for (j, w), rs in sorted(res.items()):
        def stat(rx):
            vals = [float(m.group(1)) for m in (re.search(rx, r[3]) for r in rs) if m]
            return "%.3f" % statistics.median(vals) if vals else "-"
        lines.append("| %d | %s | %.3f | %.2f | %s | %s | %d |" % (
            j, w or "default", statistics.median(r[0] for r in rs),
            statistics.median(r[1] for r in rs), stat(STATS[0][1]), stat(STATS[2][1]),
            statistics.median(dropped_after_encoding(r[3]) for r in rs)))
    return lines


def print_table(a, jobs, penv):
    """Printing every struct and every function: ours at each -j, pahole
    1.24's pahole at the first and last -j (one run each)."""
    res = {}
    for i in range(a.runs):
        for j in jobs:
            for tool in ("pahole", "pfunct"):
                res.setdefault((tool, j), []).append(
                    measure([a.d2b, tool, "-j%d" % j, a.vmlinux]))
            print("print run %d -j%d done" % (i + 1, j), file=sys.stderr, flush=True)
    theirs = {}
    if a.pahole:
        for j in (jobs[0], jobs[-1]):
            theirs[j] = measure([a.pahole, "-j%d" % j, a.vmlinux], penv)
            print("pahole 1.24 print -j%d done" % j, file=sys.stderr, flush=True)

    def med(key, k):
        return statistics.median(r[k] for r in res[key])

    lines = ["| -j | ours `pahole` wall s | CPU s | RSS MiB | speed-up over -j%d"
             " | pahole 1.24 `pahole` wall s | RSS MiB | ours / pahole 1.24"
             " | ours `pfunct` wall s | CPU s | RSS MiB |" % jobs[0],
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    p1 = med(("pahole", jobs[0]), 0)
    for j in jobs:
        pw = med(("pahole", j), 0)
        t = theirs.get(j)
        lines.append("| %d | %.3f | %.2f | %d | %.2f | %s | %s | %s | %.3f | %.2f | %d |" % (
            j, pw, med(("pahole", j), 1), med(("pahole", j), 2) // 1024, p1 / pw,
            "%.2f" % t[0] if t else "", "%d" % (t[2] // 1024) if t else "",
            "%.3f" % (pw / t[0]) if t else "",
            med(("pfunct", j), 0), med(("pfunct", j), 1), med(("pfunct", j), 2) // 1024))
    return lines


if __name__ == "__main__":
    main()
