"""What the Tricky Dungeon screens show: the public view, each seat's view, the referee's.

Every key is documented in docs/tricky.md. The only secret the companion holds is the
random dungeon's hero pile: heroes not yet drawn appear in the referee view only. The
Ninja's face-down card is unknown to the companion until revealed, so no view can leak it.
"""

from __future__ import annotations

from typing import Any

from companion.games.tricky_heroes import title
from companion.i18n import _, npgettext, pgettext


class TrickyViews:
    """Views of the Tricky engine (mixed into ``Tricky``; uses its state and helpers)."""

    seats: list[str]
    options: dict[str, Any]
    history: list[dict[str, Any]]
    revokes: list[dict[str, Any]]
    heroes_used: list[list[str]]
    current: dict[str, Any] | None

    def phase(self) -> str:
        """deal | hero | prepare | play | reveal | finished."""
        r = self.current
        if self.finished and self.history:  # type: ignore[attr-defined]
            return "finished"
        if r is None or r["phase"] == "over":
            return "deal"
        if r["phase"] == "play" and len(r["trick"]) == len(self.seats):
            return "reveal"
        return r["phase"]

    def view(self, seat: int | None) -> dict[str, Any]:
        public = self._public_view()
        if seat is None:
            return public
        to_play = public["to_play"]
        public.update({
            "seat": seat,
            "your_turn": to_play == seat,
            "prompt": self._prompt(seat),
            "hero_choices": self.hero_choices(seat),  # type: ignore[attr-defined]
            "exchange_limit": self.exchange_limit(seat),  # type: ignore[attr-defined]
        })
        return public

    def referee_view(self) -> dict[str, Any]:
        everything = self._public_view()
        r = self.current
        everything["hero_pile"] = list(r["offers"]) if r else []
        return everything

    def _public_view(self) -> dict[str, Any]:
        r = self.current
        n = len(self.seats)
        done_tricks = [list(done["tricks"]) for done in self.history]
        playing = r is not None and r["phase"] != "over"
        view: dict[str, Any] = {
            "variant": self.options["variant"],
            "hero_set": None if self.options["variant"] == "random" else self.options["hero_set"],
            "phase": self.phase(),
            "round": len(self.history) + (1 if playing else 0),
            "rounds_total": self.rounds_to_play(),  # type: ignore[attr-defined]
            "tricks_per_round": self.hand_size(),  # type: ignore[attr-defined]
            "to_play": self.to_play(),  # type: ignore[attr-defined]
            "gold": self.totals(),  # type: ignore[attr-defined]
            "round_gold": self.rounds(),  # type: ignore[attr-defined]
            "heroes_played": [{"active": done["active"], "hero": done["hero"]}
                              for done in self.history],
            "heroes_used": [list(used) for used in self.heroes_used],
            "tricks": done_tricks + ([list(r["won"])] if playing and r else []),
            "revokes": [dict(revoke) for revoke in self.revokes],
            "winners": self.winners(),  # type: ignore[attr-defined]
        }
        # Between rounds the screens keep showing the round just finished.
        view.update(self._round_view(r, n))
        return view

    def _round_view(self, r: dict[str, Any] | None, n: int) -> dict[str, Any]:
        if r is None:
            return {"active": None, "hero": None, "trump": None, "hero_offer": None,
                    "refused": [], "open_cards": [], "exchanges": [None] * n, "discards": [],
                    "prediction": None, "leader": None, "trick": [], "trick_number": None,
                    "won": [0] * n, "collected": [[] for _ in range(n)], "last_trick": None,
                    "voids": [[] for _ in range(n)]}
        offer = None
        if r["phase"] == "hero" and r["offers"]:
            offer = r["offers"][len(r["refused"])]
        return {
            "active": r["active"],
            "hero": r["hero"],
            "trump": dict(r["trump"]) if r["trump"] else None,
            "hero_offer": offer,
            "refused": list(r["refused"]),
            "open_cards": list(r["open_cards"]),
            "exchanges": list(r["exchanged"]),
            "discards": list(r["discards"]),
            "prediction": r["prediction"],
            "leader": r["leader"],
            "trick": [dict(p) for p in r["trick"]],
            "trick_number": sum(r["won"]) + 1 if r["phase"] == "play" else None,
            "won": list(r["won"]),
            "collected": [list(cards) for cards in r["collected"]],
            "last_trick": _copy_trick(r["last_trick"]),
            "voids": [sorted(voids) for voids in r["voids"]],
        }

    def _prompt(self, seat: int) -> str | None:
        """A short line for the seat's 128x64 screen: what it should do now, or None."""
        phase, r = self.phase(), self.current
        if phase == "finished":
            return pgettext("text", "Game over")
        if phase == "deal" or r is None:
            return None
        active = seat == r["active"]
        if phase == "hero":
            if not active:
                return None
            if self.options["variant"] == "random":
                return pgettext("text", "Take or refuse the {hero}").format(
                    hero=title(r["offers"][len(r["refused"])]))
            return pgettext("text", "Choose a hero")
        to_play = self.to_play()  # type: ignore[attr-defined]
        if phase == "reveal":
            return pgettext("text", "Reveal your face-down card") if seat == to_play else None
        if phase == "prepare":
            waiting = self._waiting_for(r)  # type: ignore[attr-defined]
            if waiting and waiting[0] == seat:
                return {"open-cards": pgettext("text", "Turn 4 cards face up"),
                        "trump": pgettext("text", "Name the trump suit"),
                        "predict": pgettext("text", "Predict tricks + potions")}[waiting[1]]
            limit = self.exchange_limit(seat)  # type: ignore[attr-defined]
            if limit:
                return npgettext("text", "Exchange up to {n} card", "Exchange up to {n} cards",
                                 limit).format(n=limit)
            if waiting is not None:
                return None
        if seat != to_play:
            return None
        face_down = r["hero"] == "ninja" and active
        if not r["trick"]:
            return pgettext("text", "Lead a card face down") if face_down \
                else pgettext("text", "Lead a card")
        suit = _(self.lead_suit(r))  # type: ignore[attr-defined]
        return (pgettext("text", "Play {suit} face down if you can") if face_down
                else pgettext("text", "Play {suit} if you can")).format(suit=suit)


def _copy_trick(trick: dict[str, Any] | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    return {"number": trick["number"], "winner": trick["winner"],
            "cards": [dict(p) for p in trick["cards"]]}
