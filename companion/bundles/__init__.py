"""The built-in games, one folder each (``companion/bundles/<game>/``): its rules, data,
screens, camera mapper, words and simulator, declared in the folder's ``__init__.py`` as its
``BUNDLE`` (the contract: ``companion.games.spec``).

Nothing here lists or finds games: the registry does (``companion.games.registry``), through
the ``companion.games`` entry points that name these bundles (this project's pyproject.toml)
as they name any installed game.
"""
