import resource, subprocess, sys, time, statistics
binp, warc = sys.argv[1], sys.argv[2]
modes = {"default": [], "extract": ["--extract", "--as-of", "2026-11-28"]}
res = {m: {"wall": [], "cpu": []} for m in modes}
for r in range(int(sys.argv[3]) if len(sys.argv) > 3 else 5):
    for m, extra in modes.items():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([binp, "--quiet", "-j1", *extra, warc, "-o", "/dev/null"], check=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        res[m]["wall"].append(wall); res[m]["cpu"].append(cpu)
for m in modes:
    print(m, "wall median %.3f s" % statistics.median(res[m]["wall"]), "cpu median %.3f s" % statistics.median(res[m]["cpu"]), "cpu all", ["%.3f" % c for c in res[m]["cpu"]])
print("ratio extract/default: wall %.3f, cpu %.3f" % (statistics.median(res["extract"]["wall"]) / statistics.median(res["default"]["wall"]), statistics.median(res["extract"]["cpu"]) / statistics.median(res["default"]["cpu"])))
