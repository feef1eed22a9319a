"""The fallback for cards seen only in part (under others, in a heap): SIFT keypoints of a
region matched to the enrolled faces' keypoints, with the ratio test within each face (a pip
repeated on many faces still counts), a RANSAC homography per face, and the part in view
checked by the face comparison."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.detection import (
    Detection,
    Thresholds,
    intersect,
    near,
    plausible,
    share_in_view,
)
from companion.vision.library import FACE_LONG, CardLibrary
from companion.vision.quads import Blob


def ratio_test(index: cv2.flann.Index, descriptors: np.ndarray, owners: np.ndarray,
               neighbours: int = 8) -> tuple[list[int], list[int]]:
    """(enrolled keypoint, scene keypoint) pairs that pass the ratio test within one face:
    of a scene keypoint's ``neighbours`` nearest enrolled ones, grouped by face, the nearest
    of a face is kept if it is clearly nearer than the next of the same face (or than the
    last neighbour looked at, if the face has no other near point)."""
    found, squared = index.knnSearch(descriptors, neighbours, params={"checks": 64})
    distances = np.sqrt(squared)
    lib_idx, scene_idx = [], []
    for query, (row, far) in enumerate(zip(found.tolist(), distances.tolist(), strict=True)):
        by_owner: dict[int, list[int]] = {}
        for k, point in enumerate(row):
            if point >= 0:
                by_owner.setdefault(int(owners[point]), []).append(k)
        last = far[max(k for k, point in enumerate(row) if point >= 0)] if by_owner else 0.0
        for ranks in by_owner.values():
            second = far[ranks[1]] if len(ranks) > 1 else last
            if far[ranks[0]] < 0.8 * second:
                lib_idx.append(row[ranks[0]])
                scene_idx.append(query)
    return lib_idx, scene_idx


class FeatureMatcher:
    """Cards in a region read from their keypoints."""

    def __init__(self, library: CardLibrary, limits: Thresholds) -> None:
        self.library = library
        self.limits = limits
        self.sift = cv2.SIFT_create(nfeatures=800)

    def match(self, image: np.ndarray, grey: np.ndarray, blob: Blob,
              card_long: float | None, known: Sequence[Detection]) -> list[Detection]:
        """Cards in a blob seen only in part: SIFT keypoints of the blob's region matched to
        the enrolled faces (a ratio test within each face, so a pip repeated on many faces
        still counts), a RANSAC homography per face, and the part in view checked by the
        face comparison."""
        features = self.library.features
        if len(features["descriptors"]) == 0:
            return []
        x, y, w, h = blob.box
        pad = max(w, h) // 10 + 4
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(grey.shape[1], x + w + pad), min(grey.shape[0], y + h + pad)
        crop = grey[y0:y1, x0:x1]
        estimate = card_long or 0.9 * min(crop.shape)
        # Keypoints match across scale, but not across a factor of five: bring large cards
        # down towards the enrolled faces' size, and only small ones up.
        zoom = float(np.clip(0.6 * FACE_LONG / max(estimate, 1.0), 0.25, 2.0))
        if zoom > 1.0 and estimate > 120:
            zoom = 1.0
        # The cards already read are left out: their keypoints are explained.
        hidden = np.full(crop.shape, 255, np.uint8)
        for d in known:
            cv2.fillConvexPoly(hidden, (d.corners - np.float32([x0, y0])).round()
                               .astype(np.int32), 0)
        if abs(zoom - 1.0) > 0.1:
            crop = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA
                              if zoom < 1 else cv2.INTER_LINEAR)
            hidden = cv2.resize(hidden, (crop.shape[1], crop.shape[0]),
                                interpolation=cv2.INTER_NEAREST)
        keypoints, desc = self.sift.detectAndCompute(crop, hidden)
        if desc is None or len(keypoints) < self.limits.min_inliers:
            return []
        owners_all = features["owners"]
        lib_idx, scene_idx = ratio_test(features["index"], desc, owners_all)
        if len(lib_idx) < self.limits.min_inliers:
            return []
        scene_pts = np.float32([keypoints[i].pt for i in scene_idx]).reshape(-1, 2)
        lib_pts = features["points"][lib_idx].reshape(-1, 2)
        owners = owners_all[lib_idx]
        candidates = []
        for face_number in np.unique(owners):
            chosen = owners == face_number
            while chosen.sum() >= self.limits.min_inliers:
                fitted = self._fit(int(face_number), lib_pts[chosen], scene_pts[chosen])
                if fitted is None:
                    break
                inliers, corners, used = fitted
                candidates.append((inliers, int(face_number),
                                   corners / zoom + np.float32([x0, y0])))
                # The same card may lie twice in one region: look again without these points.
                indices = np.flatnonzero(chosen)
                chosen[indices[used]] = False
        candidates.sort(key=lambda c: -c[0])
        accepted: list[Detection] = []
        for inliers, face_number, corners in candidates:
            rivals = [c for c in candidates if c[1] != face_number and near(c[2], corners)]
            if rivals and max(r[0] for r in rivals) > self.limits.inlier_ratio * inliers:
                continue
            corners = corners.astype(np.float32)
            if any(near(corners, d.corners) for d in [*known, *accepted]):
                continue
            hidden_by = [d.corners for d in [*known, *accepted] if intersect(d.corners, corners)]
            if not self._part_agrees(image, corners, face_number, hidden_by):
                continue
            accepted.append(Detection(self.library.ids[face_number], corners,
                                      float(min(1.0, inliers / 40)), "features"))
        return accepted

    def _part_agrees(self, image: np.ndarray, corners: np.ndarray, face_number: int,
                     hidden_by: list[np.ndarray]) -> bool:
        """Does the part of the card in view look like the face the keypoints named, more
        than like any other face?"""
        in_view = share_in_view(corners, hidden_by) if hidden_by else 1.0
        if in_view < 0.25:
            return False
        # Compared with every face, not the named one alone: keypoints are grey, and a card
        # printed in other colours alike (a red 8 and a green 8) matches them as well.
        scores = self.library.one_per_card(self.library.index.scores(
            image, corners, hidden_by or None))
        named = self.library.card_of(face_number)
        return (bool(scores) and self.library.card_of(scores[0].face_number) == named
                and scores[0].score >= self.limits.part_score)

    def _fit(self, face_number: int, lib_pts: np.ndarray, scene_pts: np.ndarray
             ) -> tuple[int, np.ndarray, np.ndarray] | None:
        homography, mask = cv2.findHomography(lib_pts, scene_pts, cv2.RANSAC, 5.0)
        if homography is None:
            return None
        used = mask.ravel().astype(bool)
        if used.sum() < self.limits.min_inliers:
            return None
        fh, fw = self.library.faces[face_number].shape[:2]
        outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(outline, homography).reshape(4, 2)
        if not plausible(corners, fh / fw):
            return None
        return int(used.sum()), corners, used
