/* Reading CVE JSON 5.x records back (jansson): the fields kcve's tools compare and check,
 * with every type verified. Accepts the 5.0 and 5.1.1 records present in the kernel CNA's
 * tree (published and rejected). */
#ifndef KCVE_RECORD_READER_H
#define KCVE_RECORD_READER_H

#include <stddef.h>

#include "core/error.h"
#include "record/affected.h"

struct record_product {
	char *vendor, *product, *default_status, *repo;
	char **files;
	size_t nfiles;
	struct vrange_list versions;   /* version_type / status point into static strings */
};

struct record_cpe {
	char *start, *end;             /* NULL when absent */
};

struct record_metric {
	char *vector;
	double score;
	char *severity;
	char *scenario;                /* NULL when absent */
};

struct record_json {
	char *data_version, *cve_id, *state, *org_id;
	char *title, *description, *generator;
	struct record_product *products;
	size_t nproducts;
	struct record_cpe *cpe;
	size_t ncpe;
	char **refs;
	size_t nrefs;
	struct record_metric *metrics;
	size_t nmetrics;
};

/* Parse a record. KCVE_E_PARSE (with the offending field) when it is not JSON or a field has
 * the wrong type / a required field is missing. */
int record_json_parse(const char *text, size_t len, struct record_json *out, struct kcve_err *err);
int record_json_read(const char *path, struct record_json *out, struct kcve_err *err);
void record_json_release(struct record_json *r);

#endif
