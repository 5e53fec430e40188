"""``python -m memory_node.cli``: the same tool as the ``memory-node`` command."""

from memory_node.cli.main import main

raise SystemExit(main())
