"""Installed models: the store and conversion cache, loading, the catalog, downloads, integrity checks."""
