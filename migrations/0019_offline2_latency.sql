ALTER TABLE "ranked_lists" ADD COLUMN "latency_ms" double precision;--> statement-breakpoint
ALTER TABLE "systems" ADD COLUMN "build_seconds" double precision;--> statement-breakpoint
ALTER TABLE "systems" ADD COLUMN "memory_mb" double precision;