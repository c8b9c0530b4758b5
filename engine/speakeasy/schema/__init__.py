"""The schema of each Speakeasy data file (``data/speakeasy/``), one module per file.

Each module declares the file's tables as msgspec structs (``engine.schema.Table``: unknown keys, wrong types and
missing keys are refused while decoding) and builds the components of ``engine.speakeasy.components`` from them,
after the checks a schema cannot express (``engine.data``: duplicates, references, counts, level tables).
``engine.speakeasy.loader`` reads the files and joins them into ``Rules``.
"""
