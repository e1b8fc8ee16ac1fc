CREATE TABLE "convener_attributes" (
	"unit" text NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "convener_attributes_unit_attribute_pk" PRIMARY KEY("unit","attribute")
);
