"""The enrolled library: the table's own cards and tiles, each shown to the camera once.

A library file (.npz) holds each enrolled face as a small upright image; the matching
features (templates in every rotation, colour grid, SIFT keypoints) are derived on load,
so the file stays compact and a newer matcher reads an older library.

>>> lib = CardLibrary()
>>> lib.enroll("orc", np.full((88, 63, 3), 200, np.uint8))
>>> lib.ids
['orc']
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.quads import QuadFinder, order_corners, quad_sides

FORMAT = "companion-card-library"
VERSION = 1
#: Long side of a stored face, pixels: enough detail for SIFT, small on disk.
FACE_LONG = 192
#: Long side of the fast-path template, pixels.
TEMPLATE_LONG = 48
#: Aspect (long / short) below which a face is square and matched in four rotations.
SQUARE_ASPECT = 1.15


class LibraryError(CompanionError):
    """A library file that cannot be read, or an enrolment that cannot be made."""


@dataclass(frozen=True)
class ShapeClass:
    """Faces sharing one template size; square ones are tried in four rotations."""

    aspect: float
    size: tuple[int, int]  # template width, height
    entries: list[int]
    rotations: int


def upright(image: np.ndarray) -> np.ndarray:
    """Long side vertical, turned clockwise if needed."""
    h, w = image.shape[:2]
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if w > h * SQUARE_ASPECT else image


def template_size(aspect: float) -> tuple[int, int]:
    return max(8, round(TEMPLATE_LONG / aspect)), TEMPLATE_LONG


def _grey(image_bgr: np.ndarray, seen: np.ndarray | None = None) -> np.ndarray:
    """Blurred colour planes, each less its mean (over the pixels ``seen``, if given): the
    pattern, not the light's level."""
    planes = cv2.GaussianBlur(image_bgr.astype(np.float32), (0, 0), 1.5)
    # Less the light's slow slope across the card (a lamp to one side, a glare spot).
    planes -= cv2.GaussianBlur(planes, (0, 0), 8.0)
    if seen is None:
        return planes - planes.mean(axis=(0, 1))
    return planes - planes[seen > 0].mean(axis=0)


def _unit(values: np.ndarray) -> np.ndarray:
    flat = values.ravel()
    return flat / (np.linalg.norm(flat) + 1e-6)


def pattern_scores(shape: dict, image_bgr: np.ndarray, seen: np.ndarray | None = None
                ) -> np.ndarray:
    """Correlation of a warped quad with every face of a class in every turn, turn-major.

    ``seen``: 1 where the quad's face is in view, 0 where a card known to lie on top of it
    hides it; the correlation is then taken over what is in view only.
    """
    grey = _grey(image_bgr, seen)
    if seen is None:
        # Bring the quad to the contrast of an enrolled face before taking the average away.
        grey *= shape["contrast"] / (float(grey.std()) + 1e-6)
        return np.concatenate([t["grey"] @ _unit(grey - t["common"]) for t in shape["turns"]])
    weight = np.repeat(seen.astype(np.float32)[..., None], 3, axis=2)
    grey *= shape["contrast"] / (float(grey[seen > 0].std()) + 1e-6)
    flat = weight.ravel()
    scores = []
    for turn in shape["turns"]:
        shown = turn["grey"] * flat
        query = _unit((grey - turn["common"]).ravel() * flat)
        scores.append(shown @ query / (np.linalg.norm(shown, axis=1) + 1e-6))
    return np.concatenate(scores)


def detail(image_bgr: np.ndarray) -> float:
    """Contrast relative to brightness: high on printed art, low on bare table, and the
    same under dim or bright light."""
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(grey.std() / (grey.mean() + 1.0))


def chroma_grid(image_bgr: np.ndarray) -> np.ndarray:
    """Blue and green shares of brightness in a 3x4 grid: colour without the light's level."""
    cells = cv2.resize(image_bgr, (3, 4), interpolation=cv2.INTER_AREA).astype(np.float32)
    total = cells.sum(axis=2, keepdims=True) + 1.0
    return (cells[..., :2] / total).ravel()


def seen_cells(seen: np.ndarray) -> np.ndarray:
    """Which values of chroma_grid come from cells mostly in view (for a part-hidden card)."""
    share = cv2.resize(seen.astype(np.float32), (3, 4), interpolation=cv2.INTER_AREA)
    return np.repeat((share > 0.6).ravel(), 2)


def _edge_contrast(grey: np.ndarray, quad: np.ndarray) -> float:
    """How much lighter a thin band just inside a quad is than one just outside it."""
    centre = quad.mean(axis=0)
    bands = []
    for grow in (0.97, 1.03):
        mask = np.zeros(grey.shape, np.uint8)
        outline = (centre + (quad - centre) * grow).round().astype(np.int32)
        cv2.polylines(mask, [outline], True, 255, 2)
        bands.append(cv2.mean(grey, mask)[0])
    return bands[0] - bands[1]


def _light_all_round(image: np.ndarray) -> bool:
    """Is the image's edge a light, even rim (a card scanned or drawn edge to edge) rather
    than table?"""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = grey.shape
    band = max(1, min(h, w) // 40)
    edge = np.concatenate([grey[:band].ravel(), grey[-band:].ravel(),
                           grey[:, :band].ravel(), grey[:, -band:].ravel()])
    return float(np.median(edge)) > 150 and float(np.median(edge)) >= float(np.median(grey))


class CardLibrary:
    """Enrolled faces by id, with what the recognizer needs to match them."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.faces: list[np.ndarray] = []
        self._derived: dict | None = None
        self._features = cv2.SIFT_create(nfeatures=150)
        self._finders = [QuadFinder(min_fraction=0.02, max_fraction=1.0, contrast=c)
                         for c in (30, 18, 50)]

    def __len__(self) -> int:
        return len(self.ids)

    # --- enrolment ---------------------------------------------------------------------
    def enroll(self, item_id: str, image: np.ndarray) -> None:
        """Add (or replace) a face from a photo of it alone, or from its clean artwork."""
        if not item_id:
            raise LibraryError("an enrolled card needs an id")
        if image is None or image.ndim != 3 or min(image.shape[:2]) < 16:
            raise LibraryError(f"{item_id}: not a colour image of a card")
        face = upright(self._crop_card(item_id, image))
        h, w = face.shape[:2]
        scale = FACE_LONG / max(h, w)
        face = cv2.resize(face, (max(8, round(w * scale)), FACE_LONG), interpolation=cv2.INTER_AREA)
        if item_id in self.ids:
            self.faces[self.ids.index(item_id)] = face
        else:
            self.ids.append(item_id)
            self.faces.append(face)
        self._derived = None

    def _crop_card(self, item_id: str, image: np.ndarray) -> np.ndarray:
        """The card in a photo: the largest card-shaped quad covering at least 4 % of it (a
        card photographed on the table), else the whole image if that is all card (a scan,
        or clean artwork, with its light rim all round); else a LibraryError."""
        h, w = image.shape[:2]
        pad = max(8, min(h, w) // 12)
        # A dark frame lets a card photographed edge to edge show as a bright quad.
        framed = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        grey = cv2.cvtColor(framed, cv2.COLOR_BGR2GRAY)
        # A photo is worth a few tries: a lower bar for a dim rim, a higher for a bright table.
        # A photo is worth a few tries (a lower bar for a dim rim, a higher for a bright
        # table); the outline whose inside edge stands out most from the table wins. The
        # photo's own edge shows as a quad too: only a photo all of card may use it.
        found = []
        for finder in self._finders:
            quads = [b.outline for b in finder.find(grey) if b.outline is not None
                     and 0.04 * h * w <= cv2.contourArea(b.outline) <= 0.8 * h * w
                     and max(quad_sides(b.outline)) <= 2 * min(quad_sides(b.outline))]
            if quads:
                found.append(max(quads, key=cv2.contourArea))
        if not found:
            if _light_all_round(image):
                return image
            raise LibraryError(f"{item_id}: no card found in the photo (lay the card alone on a "
                               "plain, darker surface, filling at least a fifth of the frame)")
        quad = max(found, key=lambda q: _edge_contrast(grey, q))
        top, side = quad_sides(quad)
        size = (max(8, round(top)), max(8, round(side)))
        dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
        return cv2.warpPerspective(framed, cv2.getPerspectiveTransform(order_corners(quad), dst),
                                   size)

    # --- derived matching data ---------------------------------------------------------
    @property
    def derived(self) -> dict:
        if self._derived is None:
            self._derived = self._derive()
        return self._derived

    def aspect(self, index: int) -> float:
        h, w = self.faces[index].shape[:2]
        return h / w

    def _derive(self) -> dict:
        classes: dict[tuple[int, int], list[int]] = {}
        for n in range(len(self.ids)):
            classes.setdefault(template_size(self.aspect(n)), []).append(n)
        shape_classes = []
        for size, entries in classes.items():
            aspect = size[1] / size[0]
            rotations = 4 if aspect < SQUARE_ASPECT else 2
            smalls = [cv2.resize(self.faces[n], size, interpolation=cv2.INTER_AREA)
                      for n in entries]
            # What every face shares (rim, title band, value disc) says nothing about which
            # face it is: correlate what is left once the class's average face is taken away.
            average = np.mean([_grey(s) for s in smalls], axis=0)
            turns, colour_rows, owners = [], [], []
            for k in range(rotations):
                quarter = k * (4 // rotations)
                common = np.rot90(average, quarter).copy()
                rows = [_unit(np.rot90(_grey(s), quarter) - common) for s in smalls]
                turns.append({"quarter": quarter, "common": common, "grey": np.stack(rows)})
                colour_rows.extend(chroma_grid(np.rot90(s, quarter).copy()) for s in smalls)
                owners.extend((n, quarter) for n in entries)
            contrast = float(np.mean([_grey(s).std() for s in smalls]))
            least_detail = float(min(detail(s) for s in smalls))
            shape_classes.append({"class": ShapeClass(aspect, size, entries, rotations),
                                  "turns": turns, "contrast": contrast,
                                  "least_detail": least_detail,
                                  "colour": np.stack(colour_rows), "owners": owners})
        points, descriptors, owners = [], [], []
        for n, face in enumerate(self.faces):
            keypoints, desc = self._features.detectAndCompute(
                cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), None)
            if desc is None:
                continue
            points.extend(k.pt for k in keypoints)
            descriptors.append(desc)
            owners.extend([n] * len(keypoints))
        all_descriptors = (np.concatenate(descriptors) if descriptors
                           else np.zeros((0, 128), np.float32))
        # A k-d forest: brute force over every enrolled descriptor costs too much per frame.
        matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 48})
        if len(all_descriptors):
            matcher.add([all_descriptors])
            matcher.train()
        return {"classes": shape_classes,
                "points": np.float32(points).reshape(-1, 2),
                "descriptors": all_descriptors,
                "owners": np.int32(owners),
                "matcher": matcher}

    # --- file --------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the library as one compressed .npz file."""
        header = json.dumps({"format": FORMAT, "version": VERSION, "ids": self.ids})
        arrays = {f"face_{n}": face for n, face in enumerate(self.faces)}
        with open(path, "wb") as out:
            np.savez_compressed(out, header=np.array(header), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> CardLibrary:
        """Read a library file, or raise LibraryError saying what is wrong with it."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                if header.get("format") != FORMAT:
                    raise LibraryError(f"{path}: not a card library")
                if header.get("version") != VERSION:
                    raise LibraryError(f"{path}: library version {header.get('version')} "
                                       f"(this companion reads version {VERSION})")
                library = cls()
                library.ids = [str(i) for i in header["ids"]]
                library.faces = [data[f"face_{n}"] for n in range(len(library.ids))]
        except LibraryError:
            raise
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise LibraryError(f"{path}: cannot read the card library ({exc})") from None
        return library
