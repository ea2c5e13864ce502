"""Whole archives: list a folder tree, skip what a manifest says is done, transcribe the rest.

Qt-free. `inputs` lists what to transcribe, `manifest` records what is done (in the output
folder), `worker` transcribes one file in whatever process holds an engine, `local_pool` and
`ray_pool` run workers on this machine or on a Ray cluster; the driver (`app.commands.archive`)
writes every transcript and manifest line itself, so every backend resumes every other.
"""
