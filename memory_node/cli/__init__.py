"""``memory-node``: the command-line tool for a memory database file (see ``memory-node --help``)."""
