-- The PostgreSQL store's 0009_heads.sql moves a match's version, log
-- length, time and meta into a table of their own, because an UPDATE of
-- its matches row costs there what its checks cost. SQLite's updates cost
-- nothing like it (docs/performance.md): nothing changes here, and the
-- number keeps the two stores' migrations alike.
SELECT 1;
