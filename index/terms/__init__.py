"""The German/English term tables: row type and file format (``table``), the shipped tables
(``shipped``), term lookup for ``regelwerk term`` (``lookup``) and search's word tables (``words``)."""
