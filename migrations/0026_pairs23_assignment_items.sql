CREATE TABLE "campaign_assignment_items" (
	"assignment_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	CONSTRAINT "campaign_assignment_items_assignment_id_item_id_pk" PRIMARY KEY("assignment_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "campaign_assignment_items" ADD CONSTRAINT "campaign_assignment_items_assignment_id_campaign_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."campaign_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_assignment_items" ADD CONSTRAINT "campaign_assignment_items_item_id_campaign_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."campaign_items"("id") ON DELETE cascade ON UPDATE no action;