"""Host course exports as course folders, and back.

`ai_shifu` reads and validates an AI-Shifu course export; `names` makes titles safe as
portable file names; `layout` turns an export into the files of a course folder (pure:
paths and bytes) and `packing` turns those files back into the export; `checking` checks
an export as an in-memory course. Writing the files is the disk gateway's
(`mfls.disk.trees`).
"""
