/* CVE records about the Linux kernel assigned by other CNAs (Documentation/process/cve.rst,
 * "Invalid CVEs"): each CVE JSON 5 record is classified as
 *  - duplicate:     it references a fix commit that already has a kernel CVE;
 *  - invalid:       another CNA assigned it for the upstream kernel and an affected version is
 *                   on a supported branch -> goes to the CNA remediation process;
 *  - not-ours:      only a distribution/vendor kernel, or only unsupported versions -> the
 *                   kernel CNA does not assign those;
 *  - kernel-cna:    assigned by the kernel CNA itself (nothing to do);
 *  - not-kernel:    does not name the Linux kernel. */
#ifndef KCVE_MAINTAINERS_FOREIGN_H
#define KCVE_MAINTAINERS_FOREIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

#define KERNEL_CNA_ORG "f4215fc3-5b6b-47ff-a258-f7189bd81038"

enum foreign_kind { FOREIGN_DUPLICATE, FOREIGN_INVALID, FOREIGN_NOT_OURS, FOREIGN_KERNEL_CNA,
                    FOREIGN_NOT_KERNEL };
const char *foreign_kind_name(enum foreign_kind k);

struct foreign_oracle {
	/* kernel CVE already assigned to a fix (full or >= 12-hex prefix), 0 if found */
	int (*find_cve)(void *ctx, const char *sha, char cve[32]);
	void *ctx;
	/* the supported branches ("6.12", "6.6", ...) */
	const char *const *supported;
	size_t nsupported;
};

struct foreign_result {
	enum foreign_kind kind;
	char cve[64];          /* the record's id */
	char assigner[128];    /* assignerShortName or org id */
	char duplicate_of[32]; /* for FOREIGN_DUPLICATE */
	char sha[41];          /* the shared fix commit */
	struct strbuf why;     /* one-line reason */
};
void foreign_result_release(struct foreign_result *r);

/* Classify one record (JSON text). KCVE_E_PARSE if it is not a CVE JSON 5 record. */
int foreign_classify(const char *json, size_t len, const char *kernel_org,
                     const struct foreign_oracle *o, struct foreign_result *r,
                     struct kcve_err *err);

#endif
