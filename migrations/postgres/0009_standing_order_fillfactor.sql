-- Every run updates each alert's last run (issue 42): with room left on its page and no indexed column changed, the
-- update is HOT (no new index entries, the old version pruned on the page). New pages are filled to 70 %; pages
-- written before keep their fill until rewritten (VACUUM FULL, or as their rows move).
ALTER TABLE "standing_order" SET (fillfactor = 70);
