"""The History: transcripts kept in SQLite, with a write journal so that nothing committed is lost."""
