#!/bin/bash
# The README's Raspberry Pi install, done in an arm64 Debian root on this (x86) machine.
#
# usage: sudo tools/pi-install-check.sh [LOG_FILE]
#   LOG_FILE  a table log fed to `companion run --sim --feed` (default: a 4-player Deathtrap
#             game of tests/logs)
# env:  SUITE=trixie|bookworm  the Debian base (default trixie, as Raspberry Pi OS today)
#       ROOTS=dir              where the arm64 roots are kept (default /work/pi-root; a root
#                              already there with python3 in it is reused, never the repository)
#       MIRROR=url             Debian mirror (default http://deb.debian.org/debian)
#
# Needs root, binfmt_misc, Debian's archive and PyPI. It emulates an aarch64 CPU with
# qemu-user-static, so it is slow (about 15 min for a new root, 10 min for pip): a check to run
# by hand, not a CI step; docs/pi.md says what it shows. What it cannot show: Raspberry Pi
# OS's own packages (python3-picamera2, libcamera) are not in Debian's archive; a Debian
# package compiled against the system numpy (python3-bottleneck) stands in for them in the
# numpy check. The vision step reads two cards from a rendered table with the OpenCV and
# numpy pip chose.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
LOG=$(realpath "${1:-$REPO/tests/logs/deathtrap/four-players.jsonl}")
SUITE=${SUITE:-trixie}
ROOTS=${ROOTS:-/work/pi-root}
ROOT=$ROOTS/$SUITE
MIRROR=${MIRROR:-http://deb.debian.org/debian}
case "$ROOT" in "$REPO"/*) echo "the root must be outside the repository" >&2; exit 2;; esac

T0=$SECONDS
step() { local name=$1; shift; local t=$SECONDS; echo "=== $name"; "$@"; echo "--- $name: ok ($((SECONDS - t)) s)"; }
# chroot with a clean environment (no host PIP_* settings)
in_root() { chroot "$ROOT" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 \
            PIP_CERT=/etc/ssl/certs/host-ca.crt "$@"; }

MOUNTED_BINFMT=0; ENABLED_QEMU=0; MOUNTED_PROC=0
cleanup() {
  [ $MOUNTED_PROC = 1 ] && umount "$ROOT/proc" || true
  [ $ENABLED_QEMU = 1 ] && update-binfmts --disable qemu-aarch64 || true
  [ $MOUNTED_BINFMT = 1 ] && umount /proc/sys/fs/binfmt_misc || true
  echo "=== total: $((SECONDS - T0)) s"
}
trap cleanup EXIT

host_tools() {
  command -v qemu-aarch64-static >/dev/null && command -v debootstrap >/dev/null \
    && command -v update-binfmts >/dev/null && return
  apt-get update -q
  apt-get install -y -q qemu-user-static binfmt-support debootstrap
}

binfmt() {
  if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; MOUNTED_BINFMT=1
  fi
  if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    update-binfmts --enable qemu-aarch64; ENABLED_QEMU=1
  fi
  # F: the interpreter is opened now, so it runs inside the root without being copied there
  grep '^flags:' /proc/sys/fs/binfmt_misc/qemu-aarch64 | grep -q F
}

rootfs() {
  # debootstrap removes $ROOT/debootstrap when it has finished: a root still holding it was
  # interrupted (half-configured packages), so it is built again rather than reused.
  if [ -d "$ROOT/debootstrap" ]; then
    echo "$ROOT is an unfinished debootstrap: building it again"
    mountpoint -q "$ROOT/proc" && umount "$ROOT/proc"
    rm -rf --one-file-system "$ROOT"
  fi
  if [ -x "$ROOT/usr/bin/python3" ]; then echo "reusing $ROOT"; return; fi
  debootstrap --arch=arm64 --variant=minbase \
    --include=python3,python3-venv,python3-numpy,python3-pip,ca-certificates,git \
    "$SUITE" "$ROOT" "$MIRROR"
}

prepare() {
  cp /etc/resolv.conf /etc/hosts "$ROOT/etc/"
  cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca.crt"  # pip behind a proxy
  mountpoint -q "$ROOT/proc" || { mount -t proc proc "$ROOT/proc"; MOUNTED_PROC=1; }
  echo "machine: $(in_root uname -m), $(in_root sh -c '. /etc/os-release; echo $PRETTY_NAME'),"\
       "$(in_root python3 --version)"
}

apt_packages() {
  # The README's apt line; Raspberry Pi OS's own packages are not in Debian's archive.
  local wanted="git python3-venv python3-lgpio python3-picamera2" have=() missing=()
  [ -e "$ROOT/var/lib/apt/lists/lock" ] && ls "$ROOT"/var/lib/apt/lists/*Packages* >/dev/null 2>&1 \
    || in_root apt-get update -q >/dev/null
  for package in $wanted; do
    if in_root apt-cache show "$package" >/dev/null 2>&1; then have+=("$package")
    else missing+=("$package"); fi
  done
  in_root apt-get install -y -q "${have[@]}" python3-bottleneck >/dev/null
  echo "installed: ${have[*]} (and python3-bottleneck, compiled against the system numpy)"
  echo "not in Debian's archive (Raspberry Pi OS has them): ${missing[*]:-none}"
}

clone() {
  rm -rf "$ROOT/opt/companion/src"
  mkdir -p "$ROOT/opt/companion"
  git clone -q "$REPO" "$ROOT/opt/companion/src"   # the committed HEAD
  echo "commit $(git -C "$REPO" rev-parse --short HEAD)"
  cp "$LOG" "$ROOT/opt/companion/feed.jsonl"
}

venv() {
  if [ -x "$ROOT/opt/companion/venv/bin/pip" ]; then echo "reusing /opt/companion/venv"; return; fi
  in_root python3 -m venv --system-site-packages /opt/companion/venv
}

wheels() {
  # Large downloads through the emulated TLS stack get reset by the network here: the host's
  # pip fetches the same aarch64 wheels PyPI would give, and pip inside looks there first.
  local py
  py=$(in_root python3 -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
  mkdir -p "$ROOT/opt/companion/wheels"
  # Only the large compiled ones: the small pure-Python packages pip fetches itself inside.
  python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_aarch64 \
    --platform manylinux2014_aarch64 --python-version "$py" --implementation cp \
    -d "$ROOT/opt/companion/wheels" -c "$REPO/constraints/$SUITE.txt" \
    "opencv-python-headless" "pillow>=10" 2>&1 | grep -v "^WARNING: Location" || true
  ls "$ROOT/opt/companion/wheels" | sed 's/^/  /'
}

pip_install() {
  # As the README says: the constraints of the OS's base keep numpy where its packages work.
  in_root /opt/companion/venv/bin/pip install -q --find-links /opt/companion/wheels \
    -e "/opt/companion/src[pi]" -c "/opt/companion/src/constraints/$SUITE.txt"
  in_root /opt/companion/venv/bin/pip list 2>/dev/null | grep -iE '^(numpy|opencv-python-headless|luma\.oled|luma\.core|gpiozero|pillow) '
}

cli() {
  in_root /opt/companion/venv/bin/companion --help | head -3
  echo "companion doctor --config examples/full.toml (no hardware here: FIX lines expected, exit 1):"
  local code=0
  in_root /opt/companion/venv/bin/companion doctor --config /opt/companion/src/examples/full.toml \
    > "$ROOT/tmp/doctor.txt" || code=$?
  sed 's/^/  /' "$ROOT/tmp/doctor.txt"
  echo "  exit $code"
  [ $code -le 1 ]
}

sim() {
  rm -f "$ROOT/tmp/feed.db"
  in_root /opt/companion/venv/bin/companion run --sim --feed /opt/companion/feed.jsonl \
    --db /tmp/feed.db > "$ROOT/tmp/sim.txt"
  tail -3 "$ROOT/tmp/sim.txt" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g'
  in_root /opt/companion/venv/bin/companion sessions --db /tmp/feed.db
  in_root /opt/companion/venv/bin/companion replay /opt/companion/feed.jsonl | tail -3
}

numpy_check() {
  local code='import numpy, bottleneck
print("  numpy", numpy.__version__, "from", numpy.__file__.rsplit("/numpy/", 1)[0])
print("  a Debian numpy extension (bottleneck):", bottleneck.nanmean(numpy.arange(4.0)))'
  echo "system python3:"; in_root /usr/bin/python3 -c "$code"
  echo "venv python:"
  in_root /opt/companion/venv/bin/python -c "$code
import cv2; print('  cv2', cv2.__version__)
from companion.hardware.doctor import Machine, check_picamera2
print('  picamera2 check:', *[f.line() for f in check_picamera2(Machine())])"
}

vision() {
  # The card library as the daemon keeps it (faces read in place, keypoints kept as bytes),
  # OpenCV's FLANN forest, and two cards read from a rendered table, on this OpenCV.
  in_root /opt/companion/venv/bin/python - <<'PY'
import numpy as np
from companion.vision.art import draw_face, game_items
from companion.vision.features import ratio_test
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.synthetic import Conditions, Placement, SceneRenderer
from companion.vision.table import TableLayout
items = game_items("tricky")[:8]
library = CardLibrary()
for item in items:
    library.enroll(item.item_id, draw_face(item))
library.save("/tmp/cards.npz")
library = CardLibrary.load("/tmp/cards.npz")
library.prepare()
sift = library.sift
print(f"  library: {len(library)} faces read in place: {not library.faces[0].flags.writeable},"
      f" {len(sift.owners)} keypoints read from the file: {library.keypoints_read}")
kept, asked = ratio_test(library.features["index"], sift.descriptors[:200].astype(np.float32),
                         sift.owners)
itself = sum(k == a for k, a in zip(kept, asked))
print(f"  FLANN forest: {itself} of 200 keypoints of the faces matched to themselves")
renderer = SceneRenderer(TableLayout(), size=(1280, 720))
rng = np.random.default_rng(1)
placed = [Placement(items[3], (300, 250), 15), Placement(items[5], (520, 330), 80)]
image = renderer.render(placed, rng, Conditions("felt", noise=2), renderer.camera(rng)).image
found = sorted(d.item_id for d in Recognizer(library).recognize(image))
print("  placed on a rendered table:", sorted(p.item.item_id for p in placed), "read:", found)
assert found == sorted(p.item.item_id for p in placed) and itself > 100
PY
}

step "host tools (apt)" host_tools
step "binfmt aarch64" binfmt
step "debootstrap $SUITE arm64" rootfs
step "prepare the root" prepare
step "apt install (README)" apt_packages
step "clone the project" clone
step "venv --system-site-packages" venv
step "aarch64 wheels fetched by the host" wheels
step "pip install -e .[pi] -c constraints/$SUITE.txt" pip_install
step "companion --help, doctor" cli
step "companion run --sim --feed $(basename "$LOG")" sim
step "numpy: system vs venv" numpy_check
step "vision: card library, FLANN, two cards read" vision
echo "all checks passed on $SUITE arm64"
