#!/usr/bin/env python3
# bench/follow_rate.py — the rate of `isocheck check --follow` over a long
# stream, million by million (issue 37: 100k transactions a second
# sustained on the 10M stream).  FILE (text format, one operation a line) is
# written at full speed into `BIN check -v --follow -`; each time another
# STEP lines (default 8,000,000: a million transactions of the generator's
# 8-operation shape) have gone into the pipe, the wall clock and the CPU
# time of each of the checker's threads (/proc/PID/task/*/stat: the main
# thread checks, the other one reads and parses) are noted.  The writer is
# at most the reader's pending batch (65,536 transactions) and a pipe ahead
# of the checker, so the rate of each step is the checker's to within that.
# Once the END line is out (the stream phase over) the checker is stopped
# (SIGINT) unless FINAL=1: the final phase (the batch re-check of every
# byte) is not part of the stream's rate.  Prints one line per step: lines
# written, wall of the step, its rate in transactions per wall second, the
# checking thread's CPU of the step and its transactions per CPU second;
# then the totals and the checker's -v stream summary.  PERF=FILE also
# records the checker with `perf record -k CLOCK_MONOTONIC` into FILE (its
# samples' times are the marks' clock: each step line ends with its mark's
# time, so samples can be binned by million; PERF_ARGS adds options).
#   [STEP=lines] [TXN_LINES=8] [FINAL=1] [PERF=FILE] bench/follow_rate.py FILE BIN [ARGS...]
import os, signal, subprocess, sys, time

def threads_cpu(pid):
    hz = os.sysconf("SC_CLK_TCK")
    out = {}
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            out[int(tid)] = (int(fields[11]) + int(fields[12])) / hz   # utime + stime
    except OSError:
        pass
    return out

def main():
    if len(sys.argv) < 3:
        print("usage: [STEP=lines] [FINAL=1] follow_rate.py FILE BIN [ARGS...]", file=sys.stderr)
        return 2
    path, binary = sys.argv[1], sys.argv[2]
    step = int(os.environ.get("STEP", "8000000"))
    per_txn = int(os.environ.get("TXN_LINES", "8"))
    final = os.environ.get("FINAL") == "1"
    with open("/proc/loadavg") as f:
        print(f"# {binary} {path}; load {f.read().split()[:3]}", flush=True)
    proc = subprocess.Popen([binary, "check", "-v", "--follow", "-"] + sys.argv[3:], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    perf = None
    if os.environ.get("PERF"):
        perf = subprocess.Popen(["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-F", "999", "-o", os.environ["PERF"]]
                                + os.environ.get("PERF_ARGS", "").split() + ["-p", str(proc.pid)])
        time.sleep(0.5)
    t0 = time.monotonic()
    print(f"# start at {t0:.3f}", flush=True)
    last_t, last_cpu, lines, n_step = t0, {}, 0, 0
    with open(path, "rb") as f:
        buf = b""
        for chunk in iter(lambda: f.read(1 << 20), b""):
            buf = chunk
            nl = buf.count(b"\n")
            if lines + nl >= (n_step + 1) * step:
                # write up to the step boundary, note, then the rest
                need = (n_step + 1) * step - lines
                pos = -1
                for _ in range(need):
                    pos = buf.index(b"\n", pos + 1)
                proc.stdin.write(buf[:pos + 1])
                lines += need
                n_step += 1
                now, cpu = time.monotonic(), threads_cpu(proc.pid)
                main_cpu = cpu.get(proc.pid, 0.0) - last_cpu.get(proc.pid, 0.0)
                other = sum(v for k, v in cpu.items() if k != proc.pid) - sum(v for k, v in last_cpu.items() if k != proc.pid)
                txns = step / per_txn
                print(f"{lines:>11} lines  step wall {now - last_t:7.2f} s  {txns / (now - last_t):8.0f} txns/s  "
                      f"checking CPU {main_cpu:6.2f} s  {txns / main_cpu if main_cpu > 0 else 0:8.0f} txns/CPU s  "
                      f"reader CPU {other:5.2f} s  at {now:.3f}", flush=True)
                last_t, last_cpu = now, cpu
                buf = buf[pos + 1:]
                lines_rest = buf.count(b"\n")
                proc.stdin.write(buf)
                lines += lines_rest
            else:
                proc.stdin.write(buf)
                lines += nl
    proc.stdin.close()
    proc.stdin = None
    t_in = time.monotonic() - t0
    out = []
    for line in iter(proc.stdout.readline, b""):
        s = line.decode(errors="replace").rstrip()
        out.append(s)
        if s.startswith("END after"):
            if not final:
                proc.send_signal(signal.SIGINT)
            break
    print(f"# END seen at {time.monotonic():.3f}", flush=True)
    if perf:
        perf.send_signal(signal.SIGINT)
        perf.wait()
    rest_out, rest_err = proc.communicate()
    out += rest_out.decode(errors="replace").splitlines()
    t_end = time.monotonic() - t0
    print(f"# written in {t_in:.1f} s; END at {t_end:.1f} s of wall ({lines / per_txn / t_end:.0f} txns/s)")
    for s in out:
        if s.startswith(("END", "DETECTED", "PASS", "FAIL")):
            print("# " + s)
    for s in rest_err.decode(errors="replace").splitlines():
        if "follow:" in s:
            print("# " + s)
    with open("/proc/loadavg") as f:
        print(f"# load {f.read().split()[:3]}", flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
