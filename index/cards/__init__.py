"""The card database: MTGJSON cards in a SQLite file (``store``), found by name (``lookup``)
and shown as the ``card --json`` payload (``payload``).

Cards are not documents of the rules store: a rules index does not change when cards arrive,
and 36,000 printings want an indexed table, not JSON records. Name lookup reads one SQLite
index, so ``card Tatzelwurm`` and ``term Tatzelwurm`` never import whoosh.
"""
