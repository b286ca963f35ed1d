"""The German/English term tables: row type and file format (``table``), the shipped tables
(``shipped``), term lookup for ``regelwerk term`` (``lookup``), search's word tables (``words``) and
the words people say for a term (``aliases``)."""
