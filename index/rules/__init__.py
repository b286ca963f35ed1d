"""Rule lookup by number (``lookup``): the fast path behind ``regelwerk rule``, no whoosh."""
