-- Writers of events only queue the sessions they touched (db/event-sessions.ts recomputes them into
-- event_sessions before a view reads it, and the server does so every few seconds): no lock is taken,
-- so concurrent batches of one session never wait on each other. The proposal and candidate ids the
-- events name join their set the same way; a known one is skipped without a lock.
CREATE FUNCTION events_queue_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_sessions_dirty (experiment_id, unit, session_id)
  SELECT DISTINCT i.experiment_id, i.unit, i.session_id FROM inserted i;

  INSERT INTO event_ids (experiment_id, kind, external_id)
  SELECT DISTINCT ids.experiment_id, ids.kind, ids.id FROM (
    SELECT i.experiment_id, 'proposal' AS kind, i.proposal_id AS id FROM inserted i
    UNION ALL SELECT i.experiment_id, 'candidate', i.candidate_id FROM inserted i WHERE i.candidate_id IS NOT NULL
    UNION ALL SELECT i.experiment_id, 'candidate', item FROM inserted i, unnest(i.items) AS item
  ) ids ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_queue_sessions AFTER INSERT ON events REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION events_queue_sessions();
--> statement-breakpoint
-- Events stored before this migration: queued, so the first refresh of each experiment computes them.
INSERT INTO event_sessions_dirty (experiment_id, unit, session_id) SELECT DISTINCT e.experiment_id, e.unit, e.session_id FROM events e;
--> statement-breakpoint
INSERT INTO event_ids (experiment_id, kind, external_id)
SELECT DISTINCT ids.experiment_id, ids.kind, ids.id FROM (
  SELECT e.experiment_id, 'proposal' AS kind, e.proposal_id AS id FROM events e
  UNION ALL SELECT e.experiment_id, 'candidate', e.candidate_id FROM events e WHERE e.candidate_id IS NOT NULL
  UNION ALL SELECT e.experiment_id, 'candidate', item FROM events e, unnest(e.items) AS item
) ids;
