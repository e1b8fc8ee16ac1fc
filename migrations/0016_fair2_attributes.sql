CREATE TABLE "candidate_attributes" (
	"candidate_id" integer NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "candidate_attributes_candidate_id_attribute_pk" PRIMARY KEY("candidate_id","attribute")
);
--> statement-breakpoint
ALTER TABLE "candidate_attributes" ADD CONSTRAINT "candidate_attributes_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;