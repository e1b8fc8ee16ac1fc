ALTER TABLE "sessions" ADD COLUMN "id_token" text;--> statement-breakpoint
CREATE INDEX "ranked_lists_system_idx" ON "ranked_lists" USING btree ("system_id","id");