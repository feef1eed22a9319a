"""``companion vision samples``: the samples corrections taught a library, listed, drawn, and
a bad one dropped (a running daemon reads the file again: ``TableLibrary.learn``)."""

from __future__ import annotations

import numpy as np

from companion.cli import main
from companion.commands.game_art import game_items
from companion.vision.art import draw_face
from companion.vision.library import CardLibrary, load_samples, samples_path, save_samples


def taught_library(tmp_path) -> str:
    library = CardLibrary()
    for item in game_items("tricky")[:4]:
        library.add_face(item.item_id, draw_face(item))
    path = tmp_path / "cards.npz"
    library.save(path)
    first, second = library.ids[:2]
    library.add_sample(first, library.faces[0][::-1, ::-1].copy())
    library.add_sample(second, library.faces[1])
    save_samples(library, samples_path(path))
    return str(path)


def test_samples_are_listed_drawn_and_one_dropped(tmp_path, capsys):
    path = taught_library(tmp_path)
    sheet = tmp_path / "samples.png"
    assert main(["vision", "samples", "--library", path, "--sheet", str(sheet)]) == 0
    assert capsys.readouterr().out.splitlines() == ["1: red-0", "2: red-1"]
    assert sheet.stat().st_size > 0
    assert main(["vision", "samples", "--library", path, "--drop", "1"]) == 0
    assert "dropped sample 1 (red-0)" in capsys.readouterr().out
    library = CardLibrary.load(path)
    load_samples(library, samples_path(path))
    assert [i for i, _ in library.samples] == ["red-1"]


def test_dropping_a_sample_there_is_not_is_one_line_and_exit_2(tmp_path, capsys):
    path = taught_library(tmp_path)
    assert main(["vision", "samples", "--library", path, "--drop", "3"]) == 2
    err = capsys.readouterr().err
    assert "no sample 3" in err and "Traceback" not in err


def test_a_running_camera_reads_a_samples_file_changed_under_it(tmp_path):
    from companion.daemon.library import TableLibrary
    from companion.vision.layout import TableLayout
    from companion.vision.watch import TableWatcher

    path = taught_library(tmp_path)
    table = TableLibrary(tmp_path / "cards.npz", True, ())
    watcher = TableWatcher(table.load(), TableLayout())
    assert len(watcher.recognizer.library.samples) == 2
    assert main(["vision", "samples", "--library", path, "--drop", "2"]) == 0
    table.learn(watcher)
    assert [i for i, _ in watcher.recognizer.library.samples] == ["red-0"]
    assert np.array_equal(watcher.recognizer.library.samples[0][1],
                          CardLibrary.load(path).faces[0][::-1, ::-1])
