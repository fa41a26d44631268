#!/usr/bin/env python3
"""Start-up side by side (issue 19): Hello World on jxvm (class cache off, cold, warm, through
the fork server) and on java (CDS default, -Xshare:off, an AppCDS archive), interleaved.

Run by bench/startup-run, which builds jxvm and compiles the program; this script only runs
and measures. Each round runs every variant once, in an order rotated per round, so the
machine's load falls on all alike; a run's figures are the kernel's accounting of that child
(os.wait4): user + system CPU time and peak RSS, and the wall time around it. Prints medians,
ratios to java's medians, and writes the table to the file given by --out.
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(argv, env):
    """One run: (wall s, cpu s, peak MiB, exit status, stdout)."""
    r, w = os.pipe()
    start = time.monotonic()
    pid = os.posix_spawnp(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, w, 1),
        (os.POSIX_SPAWN_CLOSE, r),
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
    ])
    os.close(w)
    out = b""
    while chunk := os.read(r, 65536):
        out += chunk
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status), out


def wait_for_socket(path, server, limit=30.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"startup: jxvm serve exited with {server.returncode}")
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(path)
                return
        except OSError:
            time.sleep(0.05)
    sys.exit("startup: jxvm serve did not listen in time")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jxvm", required=True)
    ap.add_argument("--java", required=True)
    ap.add_argument("--classes", required=True, help="the class path (a jar, for AppCDS)")
    ap.add_argument("--main", default="Hello")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--out")
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="jxvm-startup-")
    env = dict(os.environ)
    warm_cache = os.path.join(work, "warm")
    cold_cache = os.path.join(work, "cold")
    appcds = os.path.join(work, "app.jsa")
    sock = os.path.join(work, "serve.sock")
    cp = ["-cp", a.classes, a.main]
    jx = a.jxvm

    def jxvm_env(cache_home):
        e = dict(env)
        e["XDG_CACHE_HOME"] = cache_home
        e.pop("JXVM_SERVER", None)
        return e

    # The AppCDS archive and a warm cache, made before the timed runs.
    subprocess.run([a.java, f"-XX:ArchiveClassesAtExit={appcds}", *cp], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(2):
        subprocess.run([jx, *cp], env=jxvm_env(warm_cache), check=True,
                       stdout=subprocess.DEVNULL)
    server = subprocess.Popen([jx, "serve", "--socket", sock], env=jxvm_env(warm_cache),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_socket(sock, server)

        def cold():
            shutil.rmtree(cold_cache, ignore_errors=True)
            return jxvm_env(cold_cache)

        variants = [
            ("java", lambda: env, [a.java, *cp]),
            ("java -Xshare:off", lambda: env, [a.java, "-Xshare:off", *cp]),
            ("java AppCDS", lambda: env, [a.java, f"-XX:SharedArchiveFile={appcds}", *cp]),
            ("jxvm -Xshare:off", lambda: jxvm_env(warm_cache), [jx, "-Xshare:off", *cp]),
            ("jxvm cold cache", cold, [jx, *cp]),
            ("jxvm warm cache", lambda: jxvm_env(warm_cache), [jx, *cp]),
            ("jxvm --via server", lambda: jxvm_env(warm_cache), [jx, "--via", sock, *cp]),
        ]
        expected = None
        figures = {name: [] for name, _, _ in variants}
        for rnd in range(a.rounds):
            k = rnd % len(variants)
            for name, make_env, argv in variants[k:] + variants[:k]:
                wall, cpu, peak, code, out = run_once(argv, make_env())
                if code != 0:
                    sys.exit(f"startup: {name} exited with {code}")
                expected = expected or out
                if out != expected:
                    sys.exit(f"startup: {name} printed {out!r}, java {expected!r}")
                figures[name].append((wall, cpu, peak))
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)

    def med(name, i):
        return statistics.median(f[i] for f in figures[name])

    jw, jc = med("java", 0), med("java", 1)
    lines = [
        f"Start-up of `{a.main}`: medians of {a.rounds} interleaved rounds, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "",
        "| VM | wall ms | CPU ms | peak RSS MiB | wall / java | CPU / java |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, _, _ in variants:
        w, c, p = med(name, 0), med(name, 1), med(name, 2)
        lines.append(f"| {name} | {w * 1000:.1f} | {c * 1000:.1f} | {p:.1f} | "
                     f"{w / jw:.2f} | {c / jc:.2f} |")
    lines.append("")
    lines.append("The fork server's CPU time is the client's alone (the child is the server's).")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
