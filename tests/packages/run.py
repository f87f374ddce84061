"""Popular pure-Python packages' own test suites as a test of tmpy.

Each package of packages.txt (pinned versions) is fetched once into a cache
outside the repository (its sdist, for the tests, and the wheels of it and
of what its tests need), installed into a site directory with python3's pip
(pure-Python wheels do not depend on the interpreter), and its tests run
with pytest under python3 (the reference) and under each tmpy build, each in a
venv made by that interpreter (`BUILD -m venv --without-pip`) whose site-packages
reaches the shared site directory through a .pth file. A test counts for
tmpy when it passes under python3 and under the build; the tests that pass
under python3 and fail under a build are listed, less the ones
expected_failures.txt names with a reason. Each build's pytest output is
kept in the cache's logs/<package>-<build>.txt (python3's too).

    python3 tests/packages/run.py [--builds tmpy-gil,tmpy] [--out FILE] [PACKAGE ...]

The cache is $TMPY_PACKAGES_CACHE (default ~/.cache/tmpy-packages); the
downloads are checked against the index's sha256. TMPY_PACKAGES_TIMEOUT
bounds one suite's run (default 900 s). Exit status 1 when a build loses
a test that expected_failures.txt does not name."""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "build"
PACKAGES = HERE / "packages.txt"
EXPECTED_FAILURES = HERE / "expected_failures.txt"
CACHE = Path(os.environ.get("TMPY_PACKAGES_CACHE", Path.home() / ".cache" / "tmpy-packages"))
INDEX = os.environ.get("TMPY_PACKAGES_INDEX", "https://pypi.org/simple")
TIMEOUT = float(os.environ.get("TMPY_PACKAGES_TIMEOUT", "900"))


def read_packages():
    """[(name, version, test_paths, needs)] from packages.txt: `name==version
    tests=PATH[,PATH] needs=NAME==V[,NAME==V]`; needs are the wheels the
    tests import beyond pytest's."""
    pkgs = []
    for line in PACKAGES.read_text().splitlines():
        words = line.split("#")[0].split()
        if not words:
            continue
        name, version = words[0].split("==")
        fields = dict(w.split("=", 1) for w in words[1:])
        tests = fields.get("tests", "tests").split(",")
        needs = [n for n in fields.get("needs", "").split(",") if n]
        pkgs.append((name, version, tests, needs))
    return pkgs


def read_expected_failures():
    """{(package, test id): reason}; the test id may end in * (a prefix)."""
    out = {}
    if EXPECTED_FAILURES.exists():
        for line in EXPECTED_FAILURES.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            key, _, reason = line.partition(" # ")
            pkg, test = key.split(None, 1)
            out[pkg, test.strip()] = reason.strip()
    return out


def _normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def fetch(name, version, kind):
    """The cached file of NAME==VERSION, kind "sdist" or "wheel" (a
    py3-none-any wheel), downloaded from the simple index when missing."""
    folder = CACHE / "files"
    folder.mkdir(parents=True, exist_ok=True)
    for f in folder.iterdir():
        if _matches(f.name, name, version, kind):
            return f
    page = urllib.request.urlopen(f"{INDEX}/{_normal(name)}/", timeout=120).read().decode()
    for url in re.findall(r'href="([^"]+)"', page):
        url = url.replace("&amp;", "&")
        fname = url.split("#")[0].rsplit("/", 1)[-1]
        if not _matches(fname, name, version, kind):
            continue
        data = urllib.request.urlopen(url.split("#")[0], timeout=300).read()
        want = re.search(r"sha256=([0-9a-f]{64})", url)
        if want and hashlib.sha256(data).hexdigest() != want.group(1):
            raise RuntimeError(f"{fname}: sha256 differs from the index's")
        tmp = folder / (fname + ".part")
        tmp.write_bytes(data)
        tmp.rename(folder / fname)
        return folder / fname
    raise RuntimeError(f"no {kind} of {name}=={version} on {INDEX}")


def _matches(fname, name, version, kind):
    stem = re.sub(r"[-_.]+", "_", name).lower()
    low = fname.lower()
    if kind == "sdist":
        return (re.sub(r"[-_.]+", "_", low.split(f"-{version}.")[0]) == stem
                and low.endswith((f"-{version}.tar.gz", f"-{version}.zip")))
    return (low.endswith(".whl") and low.split("-")[0].replace(".", "_") == stem
            and low.split("-")[1] == version and ("py3-none-any" in low or "py2.py3-none-any" in low))


def install_site(pkgs):
    """The site directory holding every package's wheel and its tests'
    needs (pip --target, no dependency resolution: packages.txt pins all)."""
    site = CACHE / "site"
    stamp = site / ".installed"
    wanted = sorted({f"{n}=={v}" for n, v, _, _ in pkgs} | {x for p in pkgs for x in p[3]} | set(PYTEST))
    if stamp.exists() and stamp.read_text().split() == wanted:
        return site
    if site.exists():
        shutil.rmtree(site)
    wheels = []
    for w in wanted:
        name, version = w.split("==")
        if name in FROM_SOURCE:
            # no pure-Python wheel: its package folder from the sdist (the
            # optional C speedups stay unbuilt, as on any interpreter without them)
            shutil.copytree(unpack_sdist(name, version) / FROM_SOURCE[name], site / Path(FROM_SOURCE[name]).name)
        else:
            wheels.append(str(fetch(name, version, "wheel")))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--root-user-action=ignore",
                    "--target", str(site), *wheels], check=True)
    stamp.write_text("\n".join(wanted))
    return site


# packages published with compiled wheels only: installed from the sdist's folder
FROM_SOURCE = {"MarkupSafe": "src/markupsafe"}


# pytest and what it needs on 3.11, pinned
PYTEST = ["pytest==8.0.2", "iniconfig==2.0.0", "packaging==23.2", "pluggy==1.4.0"]


def unpack_sdist(name, version):
    dest = CACHE / "src" / f"{name}-{version}"
    if dest.exists():
        return dest
    archive = fetch(name, version, "sdist")
    tmp = CACHE / "src" / f".{name}-{version}.part"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        zipfile.ZipFile(archive).extractall(tmp)
    else:
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data")
    (top,) = list(tmp.iterdir())
    top.rename(dest)
    shutil.rmtree(tmp)
    return dest


def interpreter(build, site):
    """A venv made by the build (or by python3, the reference: so that it sees
    only the pinned packages too, not its own site-packages) whose
    site-packages reaches `site` through a .pth file."""
    maker = sys.executable if build == "python3" else str(BUILD / build)
    # one venv per build file: the cache is shared by worktrees, whose builds differ
    tag = hashlib.sha256(maker.encode()).hexdigest()[:10]
    venv = CACHE / "venvs" / f"{build}-{tag}"
    exe = venv / "bin" / "python"
    if not exe.exists():
        if venv.exists():
            shutil.rmtree(venv)
        subprocess.run([maker, "-m", "venv", "--without-pip", str(venv)], check=True)
    (sp,) = (venv / "lib").glob("python3*/site-packages")
    (sp / "tmpy_packages_site.pth").write_text(str(site) + "\n")
    return str(exe)


OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+)")


def run_suite(exe, src, tests, log=None):
    """{test id: outcome} and a note, from pytest -rA in the sdist's folder
    (its whole output kept in `log` when given, to read why a test failed)."""
    cmd = [exe, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", "--color=no",
           "-W", "ignore::DeprecationWarning", *tests]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", COLUMNS="200")
    env.pop("PYTHONPATH", None)
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True, timeout=TIMEOUT,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return {}, f"timed out after {TIMEOUT:.0f} s", time.time() - start
    if log:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(p.stdout + "\n--- stderr ---\n" + p.stderr)
    results = {}
    for line in p.stdout.splitlines():
        m = OUTCOME.match(line)
        if m:
            results[m.group(2)] = m.group(1)
    tail = [ln for ln in p.stdout.splitlines() if ln.strip()][-1:] or p.stderr.strip().splitlines()[-1:]
    note = tail[0][:160] if tail else f"exit {p.returncode}"
    return results, note, time.time() - start


def expected(fails, pkg, test):
    for (p, t), reason in fails.items():
        if p == pkg and (t == test or (t.endswith("*") and test.startswith(t[:-1]))):
            return reason
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builds", default="tmpy-gil,tmpy")
    ap.add_argument("--out", help="write the table here too (e.g. bench/results/packages.txt)")
    ap.add_argument("packages", nargs="*")
    args = ap.parse_args()
    pkgs = [p for p in read_packages() if not args.packages or p[0] in args.packages]
    site = install_site(read_packages())
    fails = read_expected_failures()
    builds = args.builds.split(",")
    lines = [f"package suites under pytest ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"load {os.getloadavg()[0]:.1f}); pass = passes under python3 and the build",
             f"{'package':26} {'python3 pass':>12} " + " ".join(f"{b + ' pass':>16}" for b in builds)]
    lost_any = False
    details = []
    for name, version, tests, _ in pkgs:
        src = unpack_sdist(name, version)
        ref, ref_note, ref_t = run_suite(interpreter("python3", site), src, tests, CACHE / "logs" / f"{name}-python3.txt")
        passing = {t for t, o in ref.items() if o == "PASSED"}
        cells = []
        for b in builds:
            got, note, t = run_suite(interpreter(b, site), src, tests, CACHE / "logs" / f"{name}-{b}.txt")
            ok = {t2 for t2 in passing if got.get(t2) == "PASSED"}
            lost = sorted(passing - ok)
            unexplained = [t2 for t2 in lost if not expected(fails, name, t2)]
            lost_any |= bool(unexplained)
            pct = 100.0 * len(ok) / len(passing) if passing else 0.0
            cells.append(f"{len(ok):>6}/{len(passing):<5} {pct:5.1f}%")
            if lost:
                details.append(f"{name}=={version} under {b}: {len(lost)} lost ({len(unexplained)} not in "
                               f"expected_failures.txt); pytest said: {note}; {t:.0f} s")
                details += [f"    {t2}" + ("" if t2 in unexplained else "  (expected)") for t2 in lost[:40]]
        lines.append(f"{name + '==' + version:26} {len(passing):>12} " + " ".join(f"{c:>16}" for c in cells))
        if not passing:
            details.append(f"{name}=={version}: no test passed under python3 ({ref_note})")
        print(lines[-1], flush=True)
    text = "\n".join(lines + [""] + details) + "\n"
    print("\n".join(details))
    if args.out:
        Path(args.out).write_text(text)
    return 1 if lost_any else 0


if __name__ == "__main__":
    sys.exit(main())
