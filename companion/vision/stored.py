"""How a card library's derived and bulky arrays are kept (``companion.vision.library``).

- The faces' SIFT keypoints (``Sift``): OpenCV's SIFT descriptors are whole numbers 0-255
  held as float32; they are kept as bytes, a quarter of the size and exactly the same, and
  travel in the library file, so the daemon does not find them again at every start (seconds
  on a Pi, and tens of megabytes of the allocator's heap left behind).
- Their search forest (``matcher_of``): FLANN's k-d forest over the descriptors as float32,
  built with OpenCV's random generator set to its starting state, so the same forest
  whenever and wherever it is built.
- Arrays read in place (``mapped_arrays``): the members of an uncompressed library file as
  read-only arrays over the file mapped in memory; the pages of a face leave memory when the
  library says so and come back from the page cache when the face is looked at again.
"""

from __future__ import annotations

import io
import logging
import mmap
import os
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger("companion.vision")

#: The keypoints a library file may carry: how they were found (``sift_of``). Others are
#: ignored and found again.
SIFT_KIND = "sift-400"


@dataclass(frozen=True)
class Sift:
    """Every face's SIFT keypoints: where (face pixels), the descriptor (OpenCV's SIFT
    descriptors are whole numbers 0-255 held as float32: kept as bytes, a quarter of the
    size, and exactly the same), and whose face."""

    points: np.ndarray  # (n, 2) float32
    descriptors: np.ndarray  # (n, 128) uint8
    owners: np.ndarray  # (n,) int32


def sift_of(faces: list[np.ndarray]) -> Sift:
    sift = cv2.SIFT_create(nfeatures=400)
    points, descriptors, owners = [], [], []
    for n, face in enumerate(faces):
        keypoints, desc = sift.detectAndCompute(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), None)
        if desc is None:
            continue
        points.extend(k.pt for k in keypoints)
        descriptors.append(desc.astype(np.uint8))
        owners.extend([n] * len(keypoints))
    return Sift(np.float32(points).reshape(-1, 2),
                np.concatenate(descriptors) if descriptors else np.zeros((0, 128), np.uint8),
                np.int32(owners))


def checked_sift(path: str | Path, data: Any, arrays: Any, faces: int) -> Sift | None:
    """The keypoints stored in a library file (``arrays``: the descriptors, perhaps read in
    place), or None (found again) if they are not whole."""
    try:
        sift = Sift(data["sift_points"], arrays["sift_descriptors"], data["sift_owners"])
    except KeyError:
        return None
    count = len(sift.owners)
    if (sift.points.dtype != np.float32 or sift.points.shape != (count, 2)
            or sift.descriptors.dtype != np.uint8 or sift.descriptors.shape != (count, 128)
            or sift.owners.dtype != np.int32 or sift.owners.ndim != 1
            or (count and not 0 <= int(sift.owners.min()) <= int(sift.owners.max()) < faces)):
        log.warning("%s: its stored keypoints are not whole: found again", path)
        return None
    return sift


def matcher_of(sift: Sift) -> dict:
    """What the feature matcher searches: the descriptors as float32 in a k-d forest (FLANN's
    index itself, without a matcher's second copy of every descriptor)."""
    descriptors = sift.descriptors.astype(np.float32)
    # A k-d forest: brute force over every enrolled descriptor costs too much per frame. Its
    # trees are drawn with OpenCV's random generator (of this thread), set to its starting
    # state first: the same forest whenever and wherever it is built.
    cv2.setRNGSeed(0)
    index = cv2.flann.Index(descriptors, {"algorithm": 1, "trees": 4}) if len(descriptors) \
        else None
    return {"points": sift.points, "descriptors": descriptors, "owners": sift.owners,
            "index": index}


def mapped_arrays(path: str | Path, names: list[str]
                  ) -> tuple[mmap.mmap | None, dict[str, np.ndarray] | None]:
    """The named arrays of a library file as read-only arrays over the file mapped in
    memory, if each is stored uncompressed (a .npy member of the zip archive, as ``save``
    writes them); else (None, None), and they are read as any .npz member is."""
    with open(path, "rb") as file, zipfile.ZipFile(file) as archive:
        members = [archive.getinfo(f"{name}.npy") for name in names]
        if not members or any(m.compress_type != zipfile.ZIP_STORED for m in members):
            return None, None
        # The headers are read from the file, not through the mapping: no page of the
        # arrays is brought into the process's memory before it is looked at.
        places = [_array_place(file.fileno(), member) for member in members]
        mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    arrays = {member.filename.removesuffix(".npy"): np.ndarray(shape, dtype, buffer=mapped,
                                                               offset=offset)
              for member, (offset, shape, dtype) in zip(members, places, strict=True)}
    return mapped, arrays


def _array_place(fd: int, member: zipfile.ZipInfo) -> tuple[int, tuple[int, ...], np.dtype]:
    """Where a stored .npy member's array starts in the file, its shape and its type."""
    start = member.header_offset
    local = os.pread(fd, 30, start)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise ValueError(f"{member.filename} is not where the archive says")
    name, extra = struct.unpack("<HH", local[26:30])
    begin = start + 30 + name + extra
    stream = io.BytesIO(os.pread(fd, min(member.file_size, 65536), begin))
    version = np.lib.format.read_magic(stream)
    read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                   else np.lib.format.read_array_header_2_0)
    shape, fortran, dtype = read_header(stream)
    offset = begin + stream.tell()
    size = int(np.prod(shape)) * dtype.itemsize
    if fortran or dtype.hasobject or offset + size > begin + member.file_size:
        raise ValueError(f"{member.filename} is not a plain array")
    return offset, shape, dtype
