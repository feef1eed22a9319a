"""Where the real dev photos are (../shared/vision-dev, test data we may use but not publish:
read from there, never copied into the repository); tests skip cleanly without them."""

from __future__ import annotations

import os
from pathlib import Path

DEV = Path(os.environ.get("COMPANION_VISION_DEV",
                          Path(__file__).resolve().parents[2] / "shared" / "vision-dev"))
