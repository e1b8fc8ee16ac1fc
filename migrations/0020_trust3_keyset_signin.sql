DROP INDEX "audit_log_at_idx";--> statement-breakpoint
CREATE INDEX "candidates_name_idx" ON "candidates" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "candidates_affiliation_idx" ON "candidates" USING btree ("affiliation","id");--> statement-breakpoint
CREATE INDEX "proposals_title_idx" ON "proposals" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "ranked_lists_variant_idx" ON "ranked_lists" USING btree ("variant","id");--> statement-breakpoint
CREATE INDEX "ranked_lists_imported_idx" ON "ranked_lists" USING btree ("imported_at","id");--> statement-breakpoint
CREATE INDEX "users_name_idx" ON "users" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");