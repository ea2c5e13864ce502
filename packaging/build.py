"""Build Earshot for this OS into dist/: `python packaging/build.py` (from any folder).

1. Stage (build/staging): the package metadata that carries the version from pyproject.toml, and
   the default model converted to ONNX at the `auto` precision (see build_model.py).
2. PyInstaller (packaging/earshot.spec): the one-folder app dist/earshot/ (dist/Earshot.app on macOS).
3. Packages. Linux: dist/earshot-<version>-linux-x86_64.tar.xz and dist/earshot_<version>_amd64.deb.
   Windows: the Inno Setup installer when ISCC is installed (packaging/windows/earshot.iss).
   macOS: packaging/macos/build_app.sh signs (when keys are given), makes the .dmg and notarizes.
Sizes and timings go to stdout and dist/build-info.json.

Needs the project's dependencies plus PyInstaller (`pip install -e ".[package]"`), and on Linux the
libraries PyInstaller copies from the build host (libportaudio2, libxcb-icccm4, libxcb-keysyms1)
plus dpkg-deb.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # build_model imports the app package from this source tree

APP_ICON = ROOT / "resources" / "icons" / "earshot.svg"
SELFTEST_CLIP = ROOT / "resources" / "selftest.wav"
# PyInstaller zlib-compresses each Python module it archives into the executable. Stored (level 0),
# the packages' compressor gets the modules instead and does better than zlib per module; the app
# then inflates nothing when it imports.
ZLIB_LEVEL = 0


def project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"])


def stage_metadata(staging: Path, version: str) -> None:
    """A minimal dist-info, so importlib.metadata.version("earshot") answers in the frozen app."""
    info = staging / f"earshot-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: earshot\nVersion: {version}\n", encoding="utf-8")


def stage(build: Path, version: str) -> Path:
    from build_model import stage_model

    staging = build / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    stage_metadata(staging, version)
    stage_model(staging, build / "model-cache", SELFTEST_CLIP)
    if sys.platform == "win32":
        from build_icons import write_ico

        write_ico(APP_ICON, staging / "earshot.ico")
    elif sys.platform == "darwin":
        from build_icons import write_icns

        write_icns(APP_ICON, staging / "earshot.icns")
    return staging


def run_pyinstaller(build: Path, staging: Path, dist: Path) -> None:
    shutil.rmtree(dist / "earshot", ignore_errors=True)
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(dist), "--workpath", str(build / "pyinstaller"),
                    str(HERE / "earshot.spec"), "--", "--staging", str(staging)], check=True, cwd=ROOT,
                   env={**os.environ, "PYINSTALLER_ZLIB_COMPRESSION_LEVEL": str(ZLIB_LEVEL)})


def tree_size(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*") if not p.is_dir())


def finish_bundle(bundle: Path) -> None:
    if sys.platform.startswith("linux"):
        from build_linux import slim

        slim(bundle)
        shutil.copy2(HERE / "linux" / "copyright", bundle / "COPYRIGHT")


def package(bundle: Path, version: str, dist: Path, build: Path) -> list[Path]:
    if sys.platform.startswith("linux"):
        from build_linux import make_deb, make_tarball

        return [make_tarball(bundle, version, dist), make_deb(bundle, version, dist, build / "deb", APP_ICON)]
    if sys.platform == "win32":
        iscc = shutil.which("iscc") or r"C:\Program Files (x86)\Inno Setup 6\ISCC.exe"
        if not Path(iscc).exists():
            print("Inno Setup (ISCC) not found: install it to build the installer from packaging/windows/earshot.iss")
            return []
        subprocess.run([iscc, f"/DAppVersion={version}", f"/DSourceDir={bundle}",
                        f"/DIconFile={build / 'staging' / 'earshot.ico'}", f"/O{dist}",
                        str(HERE / "windows" / "earshot.iss")], check=True)
        return [dist / f"earshot-{version}-windows-x64-setup.exe"]
    if sys.platform == "darwin":
        subprocess.run(["bash", str(HERE / "macos" / "build_app.sh"), str(dist / "Earshot.app"), version], check=True)
        return [dist / f"Earshot-{version}-macos.dmg"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--build", type=Path, default=ROOT / "build", help="work folder (default: build/)")
    parser.add_argument("--bundle-only", action="store_true", help="stop after the one-folder app")
    args = parser.parse_args()
    os.environ.pop("EARSHOT_PREBUILT_DIR", None)  # the build converts from the source weights
    dist, build, version = args.dist.resolve(), args.build.resolve(), project_version()
    if sys.platform.startswith("linux"):
        from build_linux import preflight

        preflight()
    timings: dict[str, float] = {}
    start = time.perf_counter()
    staging = stage(build, version)
    timings["stage_s"] = time.perf_counter() - start
    run_pyinstaller(build, staging, dist)
    timings["pyinstaller_s"] = time.perf_counter() - start - timings["stage_s"]
    bundle = dist / "earshot"
    finish_bundle(bundle)
    artifacts = [] if args.bundle_only else package(bundle, version, dist, build)
    timings["total_s"] = time.perf_counter() - start
    sizes = {"bundle": tree_size(bundle), **{p.name: p.stat().st_size for p in artifacts}}
    info = {"version": version, "platform": sys.platform, "sizes_bytes": sizes,
            "timings_s": {k: round(v, 1) for k, v in timings.items()}}
    (dist / "build-info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    for name, size in sizes.items():
        print(f"{name}: {size / 1e6:.1f} MB")
    print(f"built earshot {version} in {timings['total_s']:.0f} s "
          f"(staging {timings['stage_s']:.0f} s, PyInstaller {timings['pyinstaller_s']:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
