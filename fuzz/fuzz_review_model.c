/* libFuzzer target: review model files (review/model.c) and the features and score of a
 * commit message under the model that parsed (the built-in one when the input is no model). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "review/classify.h"
#include "review/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct review_model builtin;
	static bool have_builtin;
	struct kcve_err err = {0};
	if (!have_builtin) {
		if (review_model_builtin(&builtin, &err) != 0)
			return 0;
		have_builtin = true;
	}
	struct review_model m;
	bool parsed = review_model_parse((const char *)data, size, "fuzz", &m, &err) == 0;
	const struct review_model *use = parsed ? &m : &builtin;
	/* the same bytes as a commit message (NULs and all), with and without paths */
	const char *paths[] = {"Documentation/x.rst", "drivers/net/x.h", "Makefile"};
	struct classify_input in = {size ? (const char *)data : "", NULL, 0, 1, size};
	struct classify_result r;
	classify_commit(use, 0, &in, &r);
	classify_result_release(&r);
	in.paths = paths;
	in.npaths = 3;
	classify_commit(use, 0.5, &in, &r);
	classify_result_release(&r);
	if (parsed)
		review_model_release(&m);
	return 0;
}
