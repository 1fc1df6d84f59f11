/* Unit tests of the kbuild area: .config parsing, the Kbuild evaluator on a small synthetic
 * tree (written by the test), condition export, the build-directory .cmd parser, and hostile
 * input (malformed config and makefiles, non-kernel directories). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_int.h"

static char tmpdir[256];

static void put(const char *rel, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path, 0755), 0);
	*slash = '/';
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *tpath(const char *rel)
{
	static char buf[1024];
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, rel);
	return buf;
}

/* ---- .config ---- */

static struct kb_config *parse(const char *text, struct kcve_err *err)
{
	struct kb_config *c = NULL;
	int r = kb_config_parse(&c, text, strlen(text), "test.config", err);
	if (r < 0)
		assert_null(c);
	return c;
}

static void test_config_values(void **state)
{
	(void)state;
	struct kcve_err err = {0};
	struct kb_config *c = parse("#\n# Automatically generated file; DO NOT EDIT.\n#\n"
				    "CONFIG_EXT4_FS=y\r\n"
				    "CONFIG_EXT2_FS=m\n"
				    "# CONFIG_XFS_FS is not set\n"
				    "CONFIG_HZ=250\n"
				    "CONFIG_LOCALVERSION=\"-kcve \\\"q\\\" \\\\\"\n"
				    "CONFIG_EMPTY=\"\"\n"
				    "   \n"
				    "CONFIG_LATER=y\n"
				    "# CONFIG_LATER is not set\n"
				    "CONFIG_NO=n\n",
				    &err);
	assert_non_null(c);
	assert_string_equal(kb_config_get(c, "CONFIG_EXT4_FS"), "y");
	assert_string_equal(kb_config_get(c, "EXT2_FS"), "m");
	assert_null(kb_config_get(c, "CONFIG_XFS_FS"));
	assert_null(kb_config_get(c, "CONFIG_ABSENT"));
	assert_string_equal(kb_config_get(c, "CONFIG_HZ"), "250");
	assert_string_equal(kb_config_get(c, "CONFIG_LOCALVERSION"), "-kcve \"q\" \\");
	assert_string_equal(kb_config_get(c, "CONFIG_EMPTY"), "");
	assert_null(kb_config_get(c, "CONFIG_LATER")); /* a later "is not set" wins */
	assert_null(kb_config_get(c, "CONFIG_NO"));
	assert_int_equal(kb_config_count(c), 5);
	kb_config_free(c);
}

static void test_config_malformed(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *needle;
	} bad[] = {
		{"CONFIG_A=y\nCONFIG_B=y\nthis is not a config line\n", "line 3"},
		{"CONFIG_A=y\nCONFIG_=y\n", "line 2"},
		{"CONFIG_A\n", "line 1"},
		{"CONFIG_A=\"unterminated\n", "line 1"},
		{"CONFIG_A=\"a\"b\"\n", "line 1"},
		{"CONFIG_A=two words\n", "line 1"},
		{"# only comments\n# here\n", "no CONFIG_"},
		{"CONFIG_A=y\nCONFIG_B=\"x\\\"\n", "line 2"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kcve_err err = {0};
		struct kb_config *c = parse(bad[i].text, &err);
		assert_null(c);
		assert_int_equal(err.code, KCVE_E_PARSE);
		if (!strstr(err.msg, bad[i].needle))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].needle);
	}
	/* a NUL byte in the middle */
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_parse(&c, "CONFIG_A=y\n\0CONFIG_B=y\n", 23, "nul", &err), -1);
	assert_int_equal(err.code, KCVE_E_PARSE);
}

static void test_config_files(void **state)
{
	(void)state;
	put("cfg/plain", "CONFIG_A=y\nCONFIG_X86=y\n");
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_load(&c, tpath("cfg/plain"), &err), 0);
	assert_string_equal(kb_config_arch(c), "x86");
	kb_config_free(c);
	/* gzip, as /proc/config.gz */
	gzFile gz = gzopen(tpath("cfg/config.gz"), "wb");
	assert_non_null(gz);
	gzputs(gz, "CONFIG_IKCONFIG=y\n# CONFIG_B is not set\nCONFIG_ARM64=y\n");
	gzclose(gz);
	assert_int_equal(kb_config_load_gz(&c, tpath("cfg/config.gz"), &err), 0);
	assert_string_equal(kb_config_get(c, "IKCONFIG"), "y");
	assert_string_equal(kb_config_arch(c), "arm64");
	kb_config_free(c);
	/* missing file, and a plain file given as gzip (zlib reads it transparently) */
	assert_int_equal(kb_config_load(&c, tpath("cfg/none"), &err), -1);
	assert_int_equal(err.code, KCVE_E_IO);
	assert_int_equal(kb_config_load_gz(&c, tpath("cfg/none.gz"), &err), -1);
	assert_int_equal(kb_config_load_gz(&c, tpath("cfg/plain"), &err), 0);
	kb_config_free(c);
}

/* ---- synthetic kernel tree ---- */

static const char *tree_config =
	"CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_BLOCK=y\nCONFIG_EXT4_FS=y\n"
	"CONFIG_EXT4_FS_POSIX_ACL=y\n# CONFIG_EXT4_FS_SECURITY is not set\nCONFIG_EXT2_FS=m\n"
	"# CONFIG_XFS_FS is not set\nCONFIG_VIRTIO=y\nCONFIG_PROC_FS=y\nCONFIG_HZ=250\n"
	"CONFIG_DEBUG_STRING=\"yes\"\n# CONFIG_EXT4_DEBUG is not set\nCONFIG_EARLY_PRINTK=y\n";

static void write_tree(void)
{
	put("Makefile", "# top-level Makefile (not read by the evaluator)\n");
	put("Kbuild", "obj-y += init/\nobj-y += arch/$(SRCARCH)/\nobj-y += $(ARCH_CORE)\n"
		      "obj-y += fs/\nobj-y += $(ARCH_LIB)\nobj-y += drivers/\nobj-$(CONFIG_NET) += net/\n"
		      "obj-y += $(ARCH_DRIVERS)\n");
	put("scripts/Kbuild.include", "comma := ,\nempty :=\nspace := $(empty) $(empty)\n"
				      "cc-option = $(shell echo probe)\n");
	put("arch/x86/Makefile", "export BITS\nifeq ($(CONFIG_X86_32),y)\n        BITS := 32\nelse\n"
				 "        BITS := 64\nendif\n"
				 "ifeq ($(shell uname -m),x86_64)\n  KBUILD_DEFCONFIG := x86_64_defconfig\nendif\n"
				 "core-y += arch/x86/extra/\nlibs-y += arch/x86/lib/\n"
				 "drivers-$(CONFIG_PCI) += arch/x86/pci/\n"
				 "archprepare: checkbin\n\t@echo obj-y += recipe.o\n"
				 "boot := arch/x86/boot\nbzImage: vmlinux\n\t$(Q)$(MAKE) $(build)=$(boot) $(KBUILD_IMAGE)\n"
				 "archscripts:\n\t$(Q)$(MAKE) $(build)=arch/x86/tools relocs\n");
	/* boot code: built by the bzImage recipe, listed in arch/x86/Kbuild only for make clean */
	put("arch/x86/Kbuild", "obj-y += kernel/\nobj-y += realmode/\n# for cleaning\nsubdir- += boot tools cleanonly\n");
	put("arch/x86/boot/Makefile", "subdir- := compressed\nsetup-y += a20.o early_serial_console.o\n"
				      "setup-$(CONFIG_X86_APM_BOOT) += apm.o\nhostprogs := mkcpustr\n"
				      "$(obj)/compressed/vmlinux: FORCE\n\t$(Q)$(MAKE) $(build)=$(obj)/compressed $@\n");
	put("arch/x86/boot/a20.c", "");
	put("arch/x86/boot/early_serial_console.c", "");
	put("arch/x86/boot/apm.c", "");
	put("arch/x86/boot/mkcpustr.c", "");
	put("arch/x86/boot/compressed/Makefile",
	    "vmlinux-objs-y := $(obj)/misc.o\n"
	    "vmlinux-objs-$(CONFIG_EARLY_PRINTK) += $(obj)/early_serial_console.o\n"
	    "vmlinux-objs-$(CONFIG_AMD_MEM_ENCRYPT) += $(obj)/sev.o\n");
	put("arch/x86/boot/compressed/misc.c", "");
	put("arch/x86/boot/compressed/early_serial_console.c", "");
	put("arch/x86/boot/compressed/sev.c", "");
	put("arch/x86/boot/compressed/mkpiggy.c", "");
	put("arch/x86/realmode/Makefile", "subdir- := rm\nobj-y += init.o\n"
					  "$(obj)/rm/realmode.bin: FORCE\n\t$(Q)$(MAKE) $(build)=$(obj)/rm $@\n");
	put("arch/x86/realmode/init.c", "");
	put("arch/x86/realmode/rm/Makefile", "wakeup-objs := wakemain.o\nrealmode-y += reboot.o\n"
					     "realmode-$(CONFIG_ACPI_SLEEP) += $(wakeup-objs)\n");
	put("arch/x86/realmode/rm/reboot.c", "");
	put("arch/x86/realmode/rm/wakemain.c", "");
	put("arch/x86/cleanonly/Makefile", "obj-y += gone.o\n");
	put("arch/x86/cleanonly/gone.c", "");
	put("arch/x86/kernel/Makefile", "obj-y += process_$(BITS).o\nobj-$(CONFIG_X86_32) += only32.o\n"
					"extra-y += head_$(BITS).o\n");
	put("arch/x86/kernel/process_64.c", "");
	put("arch/x86/kernel/process_32.c", "");
	put("arch/x86/kernel/only32.c", "");
	put("arch/x86/kernel/head_64.c", "");
	put("arch/x86/lib/Makefile", "lib-y += delay.o\nobj-y += memcpy_$(BITS).o\n");
	put("arch/x86/lib/delay.c", "");
	put("arch/x86/extra/Makefile", "obj-y += extra.o\n");
	put("arch/x86/extra/extra.c", "");
	put("arch/x86/pci/Makefile", "obj-y += pci.o\n");
	put("arch/x86/pci/pci.c", "");
	put("arch/x86/tools/relocs.c", "");
	put("init/Makefile", "obj-y := main.o\nobj-$(CONFIG_BLK_DEV_INITRD) += initramfs.o\n"
			     "obj-y += version.o\n");
	put("init/main.c", "");
	put("init/version.c", "");
	put("init/initramfs.c", "");
	put("fs/Makefile",
	    "# fs\n"
	    "ccflags-y += -DFOO -I$(src)\nCFLAGS_open.o := -O0\n"
	    "obj-y += open.o \\\n\tread_write.o\n"
	    "obj-$(CONFIG_EXT4_FS) += ext4/\nobj-$(CONFIG_EXT2_FS) += ext2/\nobj-$(CONFIG_XFS_FS) += xfs/\n"
	    "ifdef CONFIG_BLOCK\nobj-y += buffer.o\nelse\nobj-y += no-block.o\nendif\n"
	    "ifndef CONFIG_BLOCK\nobj-y += no-block2.o\nendif\n"
	    "ifeq ($(CONFIG_PROC_FS),y)\nobj-y += proc.o\nelse ifeq ($(CONFIG_SYSFS),y)\nobj-y += sysfs.o\nendif\n"
	    "ifneq ($(CONFIG_HZ),250)\nobj-y += hz.o\nendif\n"
	    "ifeq ($(CONFIG_DEBUG_STRING),\"yes\")\nobj-y += dbgstr.o\nendif\n"
	    "ifeq '$(CONFIG_HZ)' \"250\"\nobj-y += quoted.o\nendif\n"
	    "$(obj)/gen.c: $(src)/table\n\tobj-y += recipe.o\n\techo $@\n"
	    "obj-y += after-rule.o # comment\n"
	    "names := stat namei\nobj-y += $(addsuffix .o,$(names))\n"
	    "obj-$(subst m,y,$(CONFIG_EXT2_FS)) += subst.o\n"
	    "obj-$(CONFIG_EXT2_FS:m=y) += subref.o\n"
	    "lazy = $(lazyval)\nlazyval := lazy.o\nobj-y += $(lazy)\n"
	    "define twoobjs\nd1.o d2.o\nendef\nobj-y += $(twoobjs)\n"
	    "obj-y += $(foreach n,fe1 fe2,$(n).o)\n"
	    "obj-y += $(if $(CONFIG_EXT4_FS),ifext4.o,noext4.o)\n"
	    "obj-y += $(patsubst %.c,%.o,pat.c)\n"
	    "mk = $(1)-made.o\nobj-y += $(call mk,called)\n"
	    "obj-y += $(filter-out filtered.o,kept.o filtered.o)\n"
	    "obj-y += $(sort zz.o aa.o zz.o)\n"
	    "obj-y += $(strip   spaced.o   )\n"
	    "obj-y += $(firstword first.o second.o)\n"
	    "obj-y += $(word 2,w1.o w2.o)\n"
	    "$(eval obj-y += evaled.o)\n"
	    "override obj-y += overridden.o\n"
	    "obj-y += $(wildcard $(srctree)/fs/wild*.c)\n");
	const char *fsfiles[] = {"open", "read_write", "buffer", "no-block", "no-block2", "proc", "sysfs",
				 "hz", "dbgstr", "gen", "recipe", "after-rule", "stat", "namei", "subst",
				 "subref", "lazy", "d1", "d2", "fe1", "fe2", "ifext4", "noext4", "pat",
				 "called-made", "kept", "filtered", "aa", "zz", "spaced", "first", "second",
				 "w1", "w2", "evaled", "overridden", "wildcard", "quoted"};
	for (size_t i = 0; i < sizeof(fsfiles) / sizeof(fsfiles[0]); i++) {
		char p[64];
		snprintf(p, sizeof(p), "fs/%s.c", fsfiles[i]);
		put(p, "");
	}
	put("fs/ext4/Makefile", "obj-$(CONFIG_EXT4_FS) += ext4.o\n\next4-y\t:= super.o inode.o\n"
				"ext4-$(CONFIG_EXT4_FS_POSIX_ACL) += acl.o\n"
				"ext4-$(CONFIG_EXT4_FS_SECURITY) += xattr_security.o\n");
	put("fs/ext4/super.c", "");
	put("fs/ext4/inode.c", "#include \"ext4.h\"\n#include \"inline.c\"\n#ifdef CONFIG_EXT4_DEBUG\n"
			       "#include \"debug.c\"\n#endif\n#if IS_ENABLED(CONFIG_EXT4_FS_POSIX_ACL)\n"
			       "#include \"aclhelp.c\"\n#endif\n#if FOO > 2\n#include \"weird.c\"\n#endif\n");
	put("fs/ext4/inline.c", "");
	put("fs/ext4/debug.c", "");
	put("fs/ext4/aclhelp.c", "");
	put("fs/ext4/weird.c", "");
	put("fs/ext4/acl.c", "");
	put("fs/ext4/ext4.c", "");
	put("fs/ext4/xattr_security.c", "");
	put("fs/ext4/ext4.h", "");
	put("fs/ext2/Makefile", "obj-$(CONFIG_EXT2_FS) += ext2.o\next2-objs := balloc.o dir.o\n"
				"obj-y += builtin-only.o\n");
	put("fs/ext2/balloc.c", "");
	put("fs/ext2/dir.c", "");
	put("fs/ext2/builtin-only.c", "");
	put("fs/xfs/Makefile", "obj-y += xfs.o\n");
	put("fs/xfs/xfs.c", "");
	put("drivers/Makefile", "obj-y += base/\nobj-$(CONFIG_VIRTIO) += virtio/\n"
				"include $(srctree)/drivers/Makefile.inc\n-include $(srctree)/drivers/absent.mk\n"
				"obj-y += $(shell echo probed.o)\n");
	put("drivers/Makefile.inc", "obj-y += included.o\nobj-y += exact/\n");
	/* idioms the condition export must express exactly (issue 34) */
	put("drivers/exact/Makefile",
	    "ptp_kvm-$(CONFIG_X86) := ptp_kvm_x86.o\n"
	    "ptp_kvm-$(CONFIG_HAVE_ARM_SMCCC) := ptp_kvm_arm.o\n"
	    "obj-$(CONFIG_PTP_KVM) += ptp_kvm.o\nptp_kvm-y += ptp_kvm_common.o\n"
	    "ifneq ($(filter y,$(CONFIG_DWC_HOST) $(CONFIG_DWC_DUAL)),)\nobj-y += dwc_host.o\nendif\n"
	    "ifneq ($(findstring y, $(CONFIG_FA) $(CONFIG_FB)),)\nobj-y += find.o\nendif\n"
	    "musb-$(CONFIG_MUSB_HOST)$(CONFIG_MUSB_DUAL) += musb_host.o\n"
	    "obj-$(CONFIG_MUSB) += musb.o\nmusb-y += musb_core.o\n"
	    "fonts-$(CONFIG_FONT_A) += font_a.o\nobj-$(CONFIG_FONTS) += $(fonts-y)\n"
	    "VDSO-$(CONFIG_V32) := y\nVDSO-$(CONFIG_V64) := y\nobj-$(VDSO-y) += vdso_setup.o\n"
	    "ifeq ($(CONFIG_SHIFT),16)\nobj-y += shift16.o\nendif\n");
	const char *exact[] = {"ptp_kvm_x86", "ptp_kvm_arm", "ptp_kvm_common", "dwc_host", "find",
			       "musb_host", "musb_core", "font_a", "vdso_setup", "shift16"};
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++) {
		char p[64];
		snprintf(p, sizeof(p), "drivers/exact/%s.c", exact[i]);
		put(p, "");
	}
	put("drivers/included.c", "");
	put("drivers/probed.c", "");
	put("drivers/unlisted.c", "");
	put("drivers/base/Kbuild", "obj-y += core.o\n");
	put("drivers/base/Makefile", "obj-y += wrong.o\n");
	put("drivers/base/core.c", "");
	put("drivers/base/wrong.c", "");
	put("drivers/virtio/Makefile", "helpers := ring.o\nobj-$(CONFIG_VIRTIO) += virtio.o $(helpers)\n"
				       "ifneq ($(call cc-option,-mfoo),)\nobj-y += probe-gated.o\nendif\n"
				       "vobjs := $(obj)/vdso-like.o\n");
	put("drivers/virtio/virtio.c", "");
	put("drivers/virtio/ring.c", "");
	put("drivers/virtio/probe-gated.c", "");
	put("drivers/virtio/other.c", "");
	put("drivers/virtio/vdso-like.c", "");
	put("net/Makefile", "obj-y += socket.o\n");
	put("net/socket.c", "");
	put("tools/perf/perf.c", "");
	put(".config", tree_config);
}

struct expect {
	const char *path;
	enum kb_verdict v;
	const char *reason_part; /* optional substring of the reason */
};

static const struct expect expects[] = {
	{"init/main.c", KB_COMPILED, "obj-y"},
	{"init/version.c", KB_COMPILED, NULL},
	{"init/initramfs.c", KB_NOT_COMPILED, "CONFIG_BLK_DEV_INITRD is not set"},
	{"arch/x86/kernel/process_64.c", KB_COMPILED, NULL}, /* $(BITS) exported by the arch Makefile */
	{"arch/x86/kernel/process_32.c", KB_NOT_COMPILED, NULL},
	{"arch/x86/kernel/only32.c", KB_NOT_COMPILED, "CONFIG_X86_32"},
	{"arch/x86/kernel/head_64.c", KB_COMPILED, "extra-y"},
	{"arch/x86/lib/delay.c", KB_COMPILED, "lib.a"},          /* $(ARCH_LIB) */
	{"arch/x86/extra/extra.c", KB_COMPILED, NULL},           /* $(ARCH_CORE) */
	{"arch/x86/pci/pci.c", KB_NOT_COMPILED, "not descended"}, /* drivers-$(CONFIG_PCI) */
	{"arch/x86/tools/relocs.c", KB_NOT_COMPILED, "host program"},
	/* `subdir- += boot` in arch/x86/Kbuild is for make clean; bzImage's recipe builds boot/ */
	{"arch/x86/boot/early_serial_console.c", KB_COMPILED, "setup-y"},
	{"arch/x86/boot/a20.c", KB_COMPILED, "bzImage"},
	{"arch/x86/boot/apm.c", KB_NOT_COMPILED, "CONFIG_X86_APM_BOOT is not set"},
	{"arch/x86/boot/mkcpustr.c", KB_UNKNOWN, "$(build)="},
	{"arch/x86/boot/compressed/early_serial_console.c", KB_COMPILED, "vmlinux-objs-y"},
	{"arch/x86/boot/compressed/misc.c", KB_COMPILED, "compressed kernel"},
	{"arch/x86/boot/compressed/sev.c", KB_NOT_COMPILED, "CONFIG_AMD_MEM_ENCRYPT is not set"},
	{"arch/x86/boot/compressed/mkpiggy.c", KB_UNKNOWN, "$(build)="},
	{"arch/x86/realmode/rm/reboot.c", KB_COMPILED, "realmode-y"},
	/* first listed through a helper variable (wakeup-objs): the disabled listing is not seen */
	{"arch/x86/realmode/rm/wakemain.c", KB_UNKNOWN, "$(build)="},
	{"arch/x86/cleanonly/gone.c", KB_UNKNOWN, "subdir-"},
	{"fs/open.c", KB_COMPILED, NULL},
	{"fs/read_write.c", KB_COMPILED, NULL}, /* continuation line */
	{"fs/buffer.c", KB_COMPILED, NULL},
	{"fs/no-block.c", KB_NOT_COMPILED, NULL},
	{"fs/no-block2.c", KB_NOT_COMPILED, NULL},
	{"fs/proc.c", KB_COMPILED, NULL},
	{"fs/sysfs.c", KB_NOT_COMPILED, NULL},
	{"fs/hz.c", KB_NOT_COMPILED, NULL},
	{"fs/dbgstr.c", KB_COMPILED, NULL},
	{"fs/quoted.c", KB_COMPILED, NULL},
	{"fs/recipe.c", KB_NOT_COMPILED, NULL}, /* only inside a recipe */
	{"fs/after-rule.c", KB_COMPILED, NULL},
	{"fs/stat.c", KB_COMPILED, NULL},
	{"fs/namei.c", KB_COMPILED, NULL},
	{"fs/subst.c", KB_COMPILED, NULL},
	{"fs/subref.c", KB_COMPILED, NULL},
	{"fs/lazy.c", KB_COMPILED, NULL},
	{"fs/d1.c", KB_COMPILED, NULL},
	{"fs/d2.c", KB_COMPILED, NULL},
	{"fs/fe1.c", KB_COMPILED, NULL},
	{"fs/fe2.c", KB_COMPILED, NULL},
	{"fs/ifext4.c", KB_COMPILED, NULL},
	{"fs/noext4.c", KB_NOT_COMPILED, NULL},
	{"fs/pat.c", KB_COMPILED, NULL},
	{"fs/called-made.c", KB_COMPILED, NULL},
	{"fs/kept.c", KB_COMPILED, NULL},
	{"fs/filtered.c", KB_NOT_COMPILED, NULL},
	{"fs/aa.c", KB_COMPILED, NULL},
	{"fs/zz.c", KB_COMPILED, NULL},
	{"fs/spaced.c", KB_COMPILED, NULL},
	{"fs/first.c", KB_COMPILED, NULL},
	{"fs/second.c", KB_NOT_COMPILED, NULL},
	{"fs/w1.c", KB_NOT_COMPILED, NULL},
	{"fs/w2.c", KB_COMPILED, NULL},
	{"fs/evaled.c", KB_COMPILED, NULL},
	{"fs/overridden.c", KB_COMPILED, NULL},
	{"fs/wildcard.c", KB_NOT_COMPILED, NULL}, /* $(wildcard) gives .c names, not objects */
	{"fs/ext4/super.c", KB_COMPILED, "composite fs/ext4/ext4.o"},
	{"fs/ext4/inode.c", KB_COMPILED, NULL},
	{"fs/ext4/acl.c", KB_COMPILED, NULL},
	{"fs/ext4/xattr_security.c", KB_NOT_COMPILED, "CONFIG_EXT4_FS_SECURITY is not set"},
	{"fs/ext4/ext4.c", KB_NOT_COMPILED, "composite"},
	{"fs/ext4/ext4.h", KB_UNKNOWN, "header"},
	{"fs/ext4/inline.c", KB_COMPILED, "#included by fs/ext4/inode.c"},
	{"fs/ext4/debug.c", KB_NOT_COMPILED, "#ifdef CONFIG_EXT4_DEBUG"},
	{"fs/ext4/aclhelp.c", KB_COMPILED, "#included"},
	{"fs/ext4/weird.c", KB_UNKNOWN, "#if FOO"},
	{"fs/ext2/balloc.c", KB_COMPILED, "module"},
	{"fs/ext2/dir.c", KB_COMPILED, "module"},
	{"fs/ext2/builtin-only.c", KB_NOT_COMPILED, "module directory"},
	{"fs/xfs/xfs.c", KB_NOT_COMPILED, "CONFIG_XFS_FS is not set"},
	{"drivers/included.c", KB_COMPILED, NULL},
	{"drivers/probed.c", KB_UNKNOWN, "shell"},
	{"drivers/unlisted.c", KB_UNKNOWN, NULL}, /* drivers/Makefile is partly undecidable */
	{"drivers/base/core.c", KB_COMPILED, NULL},
	{"drivers/base/wrong.c", KB_NOT_COMPILED, NULL}, /* Kbuild wins over Makefile */
	{"drivers/virtio/virtio.c", KB_COMPILED, NULL},
	{"drivers/virtio/ring.c", KB_COMPILED, NULL},
	{"drivers/virtio/probe-gated.c", KB_COMPILED, NULL}, /* undecidable branch runs */
	{"drivers/virtio/other.c", KB_UNKNOWN, "could not be fully evaluated"},
	{"drivers/virtio/vdso-like.c", KB_UNKNOWN, "custom rule"},
	{"net/socket.c", KB_NOT_COMPILED, "CONFIG_NET is not set"},
	{"tools/perf/perf.c", KB_NOT_COMPILED, "host program"},
	{"Documentation/readme.txt", KB_UNKNOWN, "not a C"},
	{"../outside.c", KB_UNKNOWN, "outside"},
	{"./init/main.c", KB_COMPILED, NULL},
};

/* Every verdict (and reason part) of want, with every mismatch printed before failing. */
static void check_verdicts(struct kb_tree *t, const struct expect *want, size_t n)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		const char *reason = NULL;
		enum kb_verdict v = kb_file_verdict(t, want[i].path, &reason);
		assert_non_null(reason);
		if (v != want[i].v || (want[i].reason_part && !strstr(reason, want[i].reason_part))) {
			print_message("%s: got %s (%s), want %s%s%s\n", want[i].path, kb_verdict_name(v),
				      reason, kb_verdict_name(want[i].v), want[i].reason_part ? " with " : "",
				      want[i].reason_part ? want[i].reason_part : "");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_tree_verdicts(void **state)
{
	(void)state;
	write_tree();
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_load(&c, tpath(".config"), &err), 0);
	struct kb_tree *t = NULL;
	if (kb_tree_open(&t, tmpdir, c, NULL, &err) < 0)
		fail_msg("open: %s", err.msg);
	check_verdicts(t, expects, sizeof(expects) / sizeof(expects[0]));
	assert_true(kb_tree_object_count(t) > 30);
	/* absolute paths: inside the tree they are relative to it, outside they are unknown */
	char abs[1024];
	const char *reason = NULL;
	char *real = realpath(tmpdir, NULL);
	snprintf(abs, sizeof(abs), "%s/init/main.c", real);
	free(real);
	assert_int_equal(kb_file_verdict(t, abs, &reason), KB_COMPILED);
	assert_int_equal(kb_file_verdict(t, "/etc/passwd.c", &reason), KB_UNKNOWN);
	kb_tree_close(t);
	kb_config_free(c);
}

/* Every line of want (each "\npath\tcondition...\n") is in the export text buf; frees buf. */
static void expect_lines(char *buf, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strstr(buf, want[i]))
			fail_msg("export lacks '%s':\n%s", want[i] + 1, buf);
	free(buf);
}

/* kb_tree_export_conditions() of t as a string (caller frees). */
static char *export_all(struct kb_tree *t)
{
	struct kcve_err err = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(kb_tree_export_conditions(t, f, &err), 0);
	fclose(f);
	return buf;
}

static void test_export_conditions(void **state)
{
	(void)state;
	write_tree();
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_load(&c, tpath(".config"), &err), 0);
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tmpdir, c, "x86", &err), 0);
	char *buf = export_all(t);
	static const char *const want[] = {
		"init/main.c\ty\n",
		"init/initramfs.c\tCONFIG_BLK_DEV_INITRD\n",
		"fs/ext4/acl.c\tCONFIG_EXT4_FS && CONFIG_EXT4_FS_POSIX_ACL\n",
		"fs/ext4/super.c\tCONFIG_EXT4_FS\n",
		"fs/xfs/xfs.c\tCONFIG_XFS_FS\n",           /* config-independent */
		"net/socket.c\tCONFIG_NET\n",
		"fs/ext2/balloc.c\tCONFIG_EXT2_FS\n",
		"fs/buffer.c\tCONFIG_BLOCK\n",
		"fs/no-block.c\t!CONFIG_BLOCK\n",   /* else branch of ifdef */
		"fs/sysfs.c\t!CONFIG_PROC_FS=y && CONFIG_SYSFS=y\n", /* =m takes the else branch too */
		"fs/hz.c\tunknown\n",                /* compares with a number: not expressible */
		/* $(BITS), set under ifeq ($(CONFIG_X86_32),y) in the arch Makefile, follows it */
		"arch/x86/kernel/process_64.c\t!CONFIG_X86_32=y\n",
		"arch/x86/kernel/process_32.c\tCONFIG_X86_32=y\n",
		"fs/ext4/inline.c\tCONFIG_EXT4_FS\n", /* unconditional #include */
		"fs/ext4/debug.c\tunknown\n",         /* #include under #ifdef */
		"arch/x86/pci/pci.c\tCONFIG_PCI\n",
		"tools/perf/perf.c\tn\n",
		"drivers/unlisted.c\tunknown\n",
		"arch/x86/boot/early_serial_console.c\ty\n",
		"arch/x86/boot/apm.c\tCONFIG_X86_APM_BOOT\n",
		"arch/x86/boot/mkcpustr.c\tunknown\n",
		"arch/x86/boot/compressed/early_serial_console.c\tCONFIG_EARLY_PRINTK\n",
		"arch/x86/realmode/rm/wakemain.c\tCONFIG_ACPI_SLEEP\n",
		"arch/x86/cleanonly/gone.c\tunknown\n",
		"arch/x86/tools/relocs.c\tn\n",
		/* a second `:=` to a computed name keeps the first where its own condition fails */
		"drivers/exact/ptp_kvm_x86.c\tCONFIG_PTP_KVM && CONFIG_X86 && !CONFIG_HAVE_ARM_SMCCC\n",
		"drivers/exact/ptp_kvm_arm.c\tCONFIG_PTP_KVM && CONFIG_HAVE_ARM_SMCCC\n",
		"drivers/exact/ptp_kvm_common.c\tCONFIG_PTP_KVM\n",
		/* $(filter y,A B) and $(findstring y,A B) in ifneq: either */
		"drivers/exact/dwc_host.c\t(CONFIG_DWC_DUAL=y) || (CONFIG_DWC_HOST=y)\n",
		"drivers/exact/find.c\t(CONFIG_FB=y) || (CONFIG_FA=y)\n",
		/* a name built from two symbols: exactly one of them y */
		"drivers/exact/musb_host.c\tCONFIG_MUSB && ((!CONFIG_MUSB_HOST && CONFIG_MUSB_DUAL=y) || "
		"(CONFIG_MUSB_HOST=y && !CONFIG_MUSB_DUAL))\n",
		"drivers/exact/musb_core.c\tCONFIG_MUSB\n",
		/* words copied from another list keep that list's condition */
		"drivers/exact/font_a.c\tCONFIG_FONTS && CONFIG_FONT_A\n",
		/* a name computed from a variable set under conditions */
		"drivers/exact/vdso_setup.c\t(CONFIG_V32 && !CONFIG_V64) || (CONFIG_V64)\n",
		/* a comparison with a number: not expressible, never "n" */
		"drivers/exact/shift16.c\tunknown\n",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("export lacks '%s':\n%s", want[i], buf);
	assert_non_null(strstr(buf, "# kcve kbuild conditions v1 arch=x86\n"));
	free(buf);
	kb_tree_close(t);
	kb_config_free(c);
}

static void test_not_a_kernel(void **state)
{
	(void)state;
	put("plain/readme", "hello\n");
	struct kcve_err err = {0};
	struct kb_config *c = parse("CONFIG_A=y\n", &err);
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tpath("plain"), c, NULL, &err), -1);
	assert_null(t);
	assert_int_equal(err.code, KCVE_E_NOTFOUND);
	assert_int_equal(kb_tree_open(&t, tpath("does-not-exist"), c, NULL, &err), -1);
	assert_int_equal(err.code, KCVE_E_NOTFOUND);
	assert_int_equal(kb_tree_open(&t, tmpdir, c, "../etc", &err), -1);
	assert_int_equal(err.code, KCVE_E_USAGE);
	/* a pre-6.1 layout (root Kbuild without directories): unknown, never "not compiled" */
	put("old/Kbuild", "bounds-file := include/generated/bounds.h\n");
	put("old/Makefile", "core-y := usr/\n");
	put("old/arch/x86/Makefile", "core-y += arch/x86/\n");
	assert_int_equal(kb_tree_open(&t, tpath("old"), c, NULL, &err), 0);
	const char *reason = NULL;
	assert_int_equal(kb_file_verdict(t, "fs/ext4/inode.c", &reason), KB_UNKNOWN);
	assert_non_null(strstr(reason, "older than 6.1"));
	kb_tree_close(t);
	kb_config_free(c);
}

/* Hostile makefiles: recursion, unterminated references, unbalanced conditionals, binary junk. */
static void test_hostile_makefiles(void **state)
{
	(void)state;
	put("hostile/Makefile", "");
	put("hostile/Kbuild", "obj-y += a/ b/ c/ d/ e/ f/ g/ h/\n");
	/* a recursive variable that prefixes itself to many words, and a subst multiplying a
	 * string (fuzz_kbuild_rules: 2 GiB asked for by addprefix): cut at the expansion caps */
	put("hostile/h/Makefile", "w := a b c d e f g h i j k l m n o p q r s t u v w x y z\n"
				  "obj = $(addprefix $(obj)/, $(w) $(w) $(w) $(w))\nobj-y += $(obj)\n"
				  "s1 := xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
				  "s2 := $(subst x,$(s1),$(s1))\ns3 := $(subst x,$(s2),$(s2))\n"
				  "s4 := $(subst x,$(s3),$(s3))\nobj-y += $(patsubst %,$(s4),$(s4) $(s4))\n"
				  "obj-y += ok.o\n");
	put("hostile/h/ok.c", "");
	put("hostile/arch/x86/Makefile", "core-y += $(core-y)\n");
	put("hostile/a/Makefile", "x = $(x) more\nobj-y += $(x)\nobj-y += ok.o\n");
	put("hostile/b/Makefile", "obj-y += $(unterminated\nobj-y += ok.o\nendif\nelse\nifeq (a,a)\n");
	put("hostile/c/Makefile", "a1 = $(a0)$(a0)\na2 = $(a1)$(a1)\na3 = $(a2)$(a2)\na4 = $(a3)$(a3)\n"
				  "a5 = $(a4)$(a4)\na6 = $(a5)$(a5)\na7 = $(a6)$(a6)\na8 = $(a7)$(a7)\n"
				  "a9 = $(a8)$(a8)\na0 := xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
				  "b = $(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)$(a9)\n"
				  "c = $(b)$(b)$(b)$(b)\nobj-y += $(c)$(c)$(c)$(c)\nobj-y += $(call,,,)$(foreach)$(subst)$(word x,)\n");
	put("hostile/d/Makefile", "include $(srctree)/d/Makefile\nobj-y += d.o\n");
	put("hostile/e/Makefile", "define x\ndefine y\nendef\nobj-y += never.o\n");
	FILE *f = fopen(tpath("hostile/f/Makefile"), "w");
	if (!f) {
		assert_int_equal(mkdir_p(tpath("hostile/f"), 0755), 0);
		f = fopen(tpath("hostile/f/Makefile"), "w");
	}
	assert_non_null(f);
	fwrite("obj-y += \0\xff\xfe.o\nobj-y += f.o\n", 1, 27, f);
	fclose(f);
	put("hostile/a/ok.c", "");
	put("hostile/d/d.c", "");
	/* rules: cycles, a self-dependency, every object depending on every other through a
	 * pattern rule, a chain of 5,000 rules (more than a makefile's cap): bounded, no crash */
	struct strbuf g = STRBUF_INIT;
	sb_adds(&g, "obj-y :=");
	for (int i = 0; i < 2000; i++)
		sb_addf(&g, " o%d.o", i);
	sb_adds(&g, "\nALL := $(addprefix $(obj)/,$(obj-y))\n$(obj)/%.o: $(ALL) $(obj)/%.o FORCE\n\t$(cc)\n"
		    "$(obj)/o1.o: $(obj)/o2.o\n$(obj)/o2.o: $(obj)/o1.o $(obj)/../g/o2.o\n\t$(x)\n"
		    "$(obj)/o3.o: $(obj)/c0.so\n");
	for (int i = 0; i < 5000; i++)
		sb_addf(&g, "$(obj)/c%d.so: $(obj)/c%d.so\n\t$(y)\n", i, i + 1);
	put("hostile/g/Makefile", sb_str(&g));
	sb_release(&g);
	put("hostile/g/o1.c", "");
	struct kcve_err err = {0};
	struct kb_config *c = parse("CONFIG_X86=y\n", &err);
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tpath("hostile"), c, NULL, &err), 0);
	const char *reason = NULL;
	/* a/ refers to itself recursively: the result is undecidable, not a crash */
	enum kb_verdict v = kb_file_verdict(t, "a/ok.c", &reason);
	assert_true(v == KB_COMPILED || v == KB_UNKNOWN);
	v = kb_file_verdict(t, "a/other.c", &reason);
	assert_int_equal(v, KB_UNKNOWN);
	v = kb_file_verdict(t, "b/other.c", &reason);
	assert_int_equal(v, KB_UNKNOWN);
	v = kb_file_verdict(t, "c/other.c", &reason);
	assert_int_equal(v, KB_UNKNOWN);
	v = kb_file_verdict(t, "d/d.c", &reason); /* self-include bounded */
	assert_true(v == KB_COMPILED || v == KB_UNKNOWN);
	v = kb_file_verdict(t, "e/never.c", &reason); /* swallowed by an unterminated define */
	assert_int_equal(v, KB_NOT_COMPILED);
	v = kb_file_verdict(t, "f/f.c", &reason);
	assert_int_equal(v, KB_COMPILED);
	v = kb_file_verdict(t, "g/o1.c", &reason);
	assert_int_equal(v, KB_COMPILED);
	v = kb_file_verdict(t, "h/other.c", &reason);
	assert_int_equal(v, KB_UNKNOWN);
	assert_non_null(strstr(reason, "too deep or too large"));
	free(export_all(t)); /* the symbolic evaluation of the same makefiles is bounded too */
	kb_tree_close(t);
	kb_config_free(c);
}

/* ---- build directory ---- */

static void test_build_dir(void **state)
{
	(void)state;
	char src[512], mf[2048];
	snprintf(src, sizeof(src), "%s/ksrc", tmpdir);
	snprintf(mf, sizeof(mf), "# Automatically generated by %s/Makefile: don't edit\ninclude %s/Makefile\n",
		 src, src);
	put("obj/Makefile", mf);
	struct strbuf cmd = STRBUF_INIT;
	sb_addf(&cmd,
		"cmd_fs/ext4/inode.o := gcc -Wp,-MMD,fs/ext4/.inode.o.d -c -o fs/ext4/inode.o %s/fs/ext4/inode.c\n\n"
		"source_fs/ext4/inode.o := %s/fs/ext4/inode.c\n\n"
		"deps_fs/ext4/inode.o := \\\n"
		"  %s/include/linux/compiler-version.h \\\n"
		"    $(wildcard include/config/CC_VERSION_TEXT) \\\n"
		"  %s/fs/ext4/ext4.h \\\n"
		"    $(wildcard include/config/EXT4_FS_POSIX_ACL) \\\n"
		"  %s/fs/ext4/inline.c \\\n"
		"  include/generated/autoconf.h \\\n"
		"  /usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h \\\n\n"
		"fs/ext4/inode.o: $(deps_fs/ext4/inode.o)\n\n$(deps_fs/ext4/inode.o):\n",
		src, src, src, src, src);
	put("obj/fs/ext4/.inode.o.cmd", sb_str(&cmd));
	sb_release(&cmd);
	put("obj/fs/ext4/.ext4.o.cmd", "cmd_fs/ext4/ext4.o := ld -r -o fs/ext4/ext4.o fs/ext4/inode.o\n");
	put("obj/kernel/.fork.o.cmd", "source_kernel/fork.c := kernel/fork.c\n\ndeps_kernel/fork.o := \\\n"
				      "  include/linux/sched.h \\\n\n");
	struct kcve_err err = {0};
	struct kb_build *b = NULL;
	assert_int_equal(kb_build_open(&b, tpath("obj"), NULL, &err), 0);
	assert_string_equal(kb_build_srctree(b), src);
	assert_int_equal(kb_build_verdict(b, "fs/ext4/inode.c"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "fs/ext4/ext4.h"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "fs/ext4/inline.c"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "./include/linux/compiler-version.h"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "kernel/fork.c"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "include/linux/sched.h"), KB_COMPILED);
	assert_int_equal(kb_build_verdict(b, "fs/ext4/acl.c"), KB_NOT_COMPILED);
	assert_int_equal(kb_build_verdict(b, "include/config/EXT4_FS_POSIX_ACL"), KB_NOT_COMPILED);
	assert_int_equal(kb_build_verdict(b, "usr/lib/gcc/x86_64-linux-gnu/12/include/stdarg.h"),
			 KB_NOT_COMPILED);
	/* 7 paths: inode.c, compiler-version.h, ext4.h, inline.c, autoconf.h, fork.c, sched.h */
	assert_int_equal(kb_build_count(b), 7);
	assert_string_equal(kb_build_path(b, 0), "fs/ext4/ext4.h"); /* sorted */
	assert_null(kb_build_path(b, 7));
	kb_build_close(b);
	/* no .cmd at all, and a missing directory */
	put("empty/readme", "x");
	assert_int_equal(kb_build_open(&b, tpath("empty"), NULL, &err), -1);
	assert_int_equal(err.code, KCVE_E_NOTFOUND);
	assert_int_equal(kb_build_open(&b, tpath("nowhere"), NULL, &err), -1);
	assert_int_equal(err.code, KCVE_E_NOTFOUND);
}

/* An object of a kbuild list compiled from a source elsewhere by an explicit rule, as
 * kernel/bpf/Makefile builds relo_core.o from tools/lib/bpf/relo_core.c: that source is part of
 * the kernel (or of a module) exactly when the object is, although tools/ holds host programs. */
static void write_rule_tree(void)
{
	put("rt/Makefile", "# top-level\n");
	put("rt/Kbuild", "obj-y += kernel/\nobj-y += drivers/\n");
	put("rt/arch/x86/Makefile", "");
	put("rt/kernel/Makefile", "obj-y += bpf/\n");
	put("rt/kernel/bpf/Makefile",
	    "obj-y := core.o\n"
	    "obj-$(CONFIG_BPF_SYSCALL) += syscall.o relo_core.o\n"
	    "$(obj)/relo_core.o: $(srctree)/tools/lib/bpf/relo_core.c FORCE\n"
	    "\t$(call if_changed_rule,cc_o_c)\n"
	    "obj-$(CONFIG_BPF_JIT) += jit_relo.o\n"
	    "$(obj)/jit_relo.o: $(srctree)/tools/lib/bpf/jit_relo.c FORCE\n"
	    "\t$(call if_changed_rule,cc_o_c)\n"
	    /* a rule whose target no list names, and the usual same-directory rule */
	    "$(obj)/unlisted.o: $(srctree)/tools/lib/bpf/unlisted.c\n"
	    "$(obj)/core.o: $(src)/core.c FORCE\n");
	put("rt/drivers/Makefile", "obj-$(CONFIG_PRELOAD) += preload.o\n"
				   "$(obj)/preload.o: $(src)/../tools/preload/main.c $(src)/preload.h\n"
				   "\n\t$(call if_changed_rule,cc_o_c)\n"
				   /* a recipe on the rule line */
				   "obj-y += inline.o\n$(obj)/inline.o: $(srctree)/tools/inline/inline.c ; $(cc)\n"
				   /* no recipe: only a dependency (a generated table #included by inat.c) */
				   "obj-y += inat.o\n$(obj)/inat.o: $(srctree)/tools/gen/tables.c\n"
				   "inat-tables.c: FORCE\n\t$(call cmd,tables)\n");
	static const char *const files[] = {
		"kernel/bpf/core.c", "kernel/bpf/syscall.c", "tools/lib/bpf/relo_core.c",
		"tools/lib/bpf/jit_relo.c", "tools/lib/bpf/unlisted.c", "tools/lib/bpf/libbpf.c",
		"tools/preload/main.c", "tools/inline/inline.c", "tools/gen/tables.c"};
	char rel[128];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "rt/%s", files[i]);
		put(rel, "");
	}
	put("rt/.config", "CONFIG_MODULES=y\nCONFIG_BPF_SYSCALL=y\n# CONFIG_BPF_JIT is not set\n"
			  "CONFIG_PRELOAD=m\n");
}

static void test_explicit_rule_source(void **state)
{
	(void)state;
	write_rule_tree();
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_load(&c, tpath("rt/.config"), &err), 0);
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tpath("rt"), c, "x86", &err), 0);
	static const struct expect want[] = {
		{"tools/lib/bpf/relo_core.c", KB_COMPILED, "as kernel/bpf/relo_core.o by the explicit rule at kernel/bpf/Makefile:3"},
		{"tools/lib/bpf/jit_relo.c", KB_NOT_COMPILED, "CONFIG_BPF_JIT is not set"},
		{"tools/lib/bpf/unlisted.c", KB_NOT_COMPILED, "host program"},
		{"tools/lib/bpf/libbpf.c", KB_NOT_COMPILED, "host program"},
		{"tools/preload/main.c", KB_COMPILED, "module object, compiled from this file as drivers/preload.o"},
		{"tools/inline/inline.c", KB_COMPILED, "as drivers/inline.o by the explicit rule at drivers/Makefile:6"},
		{"tools/gen/tables.c", KB_NOT_COMPILED, "host program"},
		{"kernel/bpf/core.c", KB_COMPILED, NULL},
		{"kernel/bpf/relo_core.c", KB_COMPILED, NULL},
	};
	check_verdicts(t, want, sizeof(want) / sizeof(want[0]));
	char mod[64];
	assert_true(kb_file_module(t, "tools/preload/main.c", mod, sizeof(mod)));
	assert_string_equal(mod, "main"); /* named after the source; the loader says "preload" */
	/* the condition export and the per-path export give the source its object's condition */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(kb_tree_export_conditions(t, f, &err), 0);
	static const char *const paths[] = {"tools/lib/bpf/relo_core.c", "tools/lib/bpf/libbpf.c"};
	assert_int_equal(kb_export_db_conditions(tpath("rt"), paths, 2, f, &err), 0);
	fclose(f);
	static const char *const lines[] = {
		"\ntools/lib/bpf/relo_core.c\tCONFIG_BPF_SYSCALL\n", "\ntools/lib/bpf/jit_relo.c\tCONFIG_BPF_JIT\n",
		"\ntools/lib/bpf/unlisted.c\tn\n", "\ntools/lib/bpf/libbpf.c\tn\n",
		"\ntools/preload/main.c\tCONFIG_PRELOAD\n", "\ntools/lib/bpf/relo_core.c\tCONFIG_BPF_SYSCALL\trelo_core\n",
		"\ntools/lib/bpf/libbpf.c\tn\t\n",
	};
	expect_lines(buf, lines, sizeof(lines) / sizeof(lines[0]));
	kb_tree_close(t);
	kb_config_free(c);
}

/* Sources that a makefile's own rules compile (rulesrc.c), in the shapes of arm64's makefiles:
 * a pattern rule compiling one source under other object names (arch/arm64/crypto's
 * `$(obj)/aes-glue-%.o: $(src)/aes-glue.c`), hyp-obj-y renamed to %.nvhe.o and linked by custom
 * rules into the obj-y object kvm_nvhe.o, the vDSO that vdso-wrap.o depends on and whose makefile
 * links $(obj-vdso) (a makefile variable, not a Kconfig list), a static pattern rule (vdso32). */
static void write_chain_tree(void)
{
	put("ct/Makefile", "# top-level\n");
	put("ct/Kbuild", "obj-y += arch/$(SRCARCH)/\n");
	/* the default image's rules build the decompressor (arm's zImage, s390's bzImage) */
	put("ct/arch/arm64/Makefile", "boot := arch/arm64/boot\nKBUILD_IMAGE := $(boot)/zImage\n"
				      "all: $(notdir $(KBUILD_IMAGE))\n"
				      "zImage: vmlinux\n\t$(Q)$(MAKE) $(build)=$(boot) $(boot)/$@\n");
	put("ct/arch/arm64/boot/Makefile", "$(obj)/zImage: $(obj)/compressed/vmlinux FORCE\n\t$(call objcopy)\n"
					   "$(obj)/compressed/vmlinux: $(obj)/Image FORCE\n"
					   "\t$(Q)$(MAKE) $(build)=$(obj)/compressed $@\n"
					   "$(obj)/Image: vmlinux FORCE\n\t$(call objcopy)\n");
	put("ct/arch/arm64/boot/compressed/Makefile",
	    "OBJS := misc.o\nOBJS-$(CONFIG_FDT) += fdt.o\nOBJS += $(OBJS-y)\n"
	    "$(obj)/vmlinux: $(obj)/vmlinux.lds $(addprefix $(obj)/, $(OBJS)) FORCE\n\t$(call ld)\n");
	put("ct/arch/arm64/Kbuild", "obj-y += crypto/ kvm/ kernel/ vdso/\n");
	put("ct/arch/arm64/crypto/Makefile",
	    "obj-$(CONFIG_CE) += aes-ce-blk.o\naes-ce-blk-y := aes-glue-ce.o aes-ce-core.o\n"
	    "obj-$(CONFIG_NEON) += aes-neon-blk.o\naes-neon-blk-y := aes-glue-neon.o aes-neon.o\n"
	    "obj-$(CONFIG_BS) += bs-glue.o\n"
	    "$(obj)/aes-glue-%.o: $(src)/aes-glue.c FORCE\n\t$(call if_changed_rule,cc_o_c)\n"
	    "$(obj)/bs-%.o: $(src)/bs.c FORCE\n\t$(call if_changed_rule,cc_o_c)\n"
	    /* disabled list + a variable that a rule links: unknown; a helper variable that only
	     * feeds the disabled list: not compiled */
	    "obj-$(CONFIG_OFF) += img.o\nvobjs := linked.o\nobj-$(CONFIG_OFF) += linked.o\n"
	    "$(obj)/img.so: $(addprefix $(obj)/,$(vobjs))\n\t$(call cmd,ld)\n"
	    "helper_files = helped.o\nlib-$(CONFIG_OFF) += $(helper_files)\n");
	put("ct/arch/arm64/kvm/Makefile", "obj-$(CONFIG_KVM) += hyp/nvhe/\nobj-$(CONFIG_KVM) += vhe.o\n");
	put("ct/arch/arm64/kvm/hyp/nvhe/Makefile",
	    "lib-objs := clear_page.o\nlib-objs := $(addprefix ../../../lib/, $(lib-objs))\n"
	    "hyp-obj-y := switch.o entry.o \\\n\t../shared.o\nhyp-obj-$(CONFIG_DEBUG_LIST) += list_debug.o\n"
	    "hyp-obj-y += $(lib-objs)\n"
	    "hyp-obj := $(patsubst %.o,%.nvhe.o,$(hyp-obj-y))\nobj-y := kvm_nvhe.o\n"
	    "targets += $(hyp-obj) kvm_nvhe.tmp.o\n"
	    "$(obj)/%.nvhe.o: $(src)/%.c FORCE\n\t$(call if_changed_rule,cc_o_c)\n"
	    "$(obj)/%.nvhe.o: $(src)/%.S FORCE\n\t$(call if_changed_rule,as_o_S)\n"
	    "$(obj)/kvm_nvhe.tmp.o: $(obj)/hyp.lds $(addprefix $(obj)/,$(hyp-obj)) FORCE\n\t$(call if_changed,ld)\n"
	    "$(obj)/hyp-reloc.S: $(obj)/kvm_nvhe.tmp.o $(obj)/gen-hyprel FORCE\n\t$(call if_changed,hyprel)\n"
	    "$(obj)/kvm_nvhe.rel.o: $(obj)/kvm_nvhe.tmp.o $(obj)/hyp-reloc.o FORCE\n\t$(call if_changed,ld)\n"
	    "$(obj)/kvm_nvhe.o: $(obj)/kvm_nvhe.rel.o FORCE\n\t$(call if_changed,hypcopy)\n");
	put("ct/arch/arm64/kernel/Makefile",
	    "obj-y += vdso-wrap.o\nobj-$(CONFIG_COMPAT_VDSO) += vdso32-wrap.o\n"
	    "$(obj)/vdso-wrap.o: $(obj)/vdso/vdso.so\n$(obj)/vdso32-wrap.o: $(obj)/vdso32/vdso.so\n"
	    "subdir- += vdso vdso32\n");
	put("ct/arch/arm64/kernel/vdso/Makefile",
	    "obj-vdso := vgettimeofday.o note.o\ntargets := $(obj-vdso) vdso.so vdso.so.dbg\n"
	    "obj-vdso := $(addprefix $(obj)/, $(obj-vdso))\n"
	    "$(obj)/vdso.so.dbg: $(obj)/vdso.lds $(obj-vdso) FORCE\n\t$(call if_changed,vdsold)\n"
	    "$(obj)/%.so: OBJCOPYFLAGS := -S\n$(obj)/%.so: $(obj)/%.so.dbg FORCE\n\t$(call if_changed,objcopy)\n");
	put("ct/arch/arm64/kernel/vdso32/Makefile",
	    "c-obj-vdso := note.o\nc-obj-vdso := $(addprefix $(obj)/, $(c-obj-vdso))\n"
	    "$(obj)/vdso.so: $(obj)/vdso.so.raw FORCE\n\t$(call if_changed,objcopy)\n"
	    "$(obj)/vdso.so.raw: $(src)/vdso.lds $(c-obj-vdso) FORCE\n\t$(call if_changed,vdsold)\n"
	    "$(c-obj-vdso): %.o: %.c FORCE\n\t$(call if_changed_dep,vdsocc)\n");
	/* an evaluated directory (armhf's arch/arm/vdso): obj-vdso is no Kconfig list */
	put("ct/arch/arm64/vdso/Makefile",
	    "obj-vdso := vg.o\nobj-vdso := $(addprefix $(obj)/, $(obj-vdso))\nobj-$(CONFIG_VDSO) += vdso.o\n"
	    "$(obj)/vdso.o : $(obj)/vdso.so\n$(obj)/vdso.so.raw: $(obj)/vdso.lds $(obj-vdso) FORCE\n\t$(call ld)\n"
	    "$(obj)/vdso.so.dbg: $(obj)/vdso.so.raw FORCE\n\t$(call munge)\n"
	    "$(obj)/%.so: $(obj)/%.so.dbg FORCE\n\t$(call if_changed,objcopy)\n");
	static const char *const files[] = {
		"arch/arm64/crypto/aes-glue.c", "arch/arm64/crypto/aes-ce-core.S", "arch/arm64/crypto/aes-neon.S",
		"arch/arm64/crypto/bs.c", "arch/arm64/crypto/linked.c", "arch/arm64/crypto/helped.c",
		"arch/arm64/kvm/vhe.c", "arch/arm64/kvm/hyp/shared.c", "arch/arm64/kvm/hyp/nvhe/switch.c",
		"arch/arm64/kvm/hyp/nvhe/entry.S", "arch/arm64/kvm/hyp/nvhe/list_debug.c",
		"arch/arm64/kvm/hyp/nvhe/unused.c", "arch/arm64/lib/clear_page.S",
		"arch/arm64/kernel/vdso-wrap.S", "arch/arm64/kernel/vdso32-wrap.S",
		"arch/arm64/kernel/vdso/vgettimeofday.c", "arch/arm64/kernel/vdso/note.S",
		"arch/arm64/kernel/vdso32/note.c", "arch/arm64/vdso/vg.c", "arch/arm64/vdso/vdso.S",
		"arch/arm64/boot/compressed/misc.c", "arch/arm64/boot/compressed/fdt.c",
		"arch/arm64/boot/compressed/other.c"};
	char rel[128];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "ct/%s", files[i]);
		put(rel, "");
	}
}

static void test_rule_chains(void **state)
{
	(void)state;
	write_chain_tree();
	put("ct/on.config", "CONFIG_ARM64=y\nCONFIG_MODULES=y\nCONFIG_CE=m\n# CONFIG_NEON is not set\n"
			    "CONFIG_KVM=y\nCONFIG_COMPAT_VDSO=y\nCONFIG_VDSO=y\n");
	put("ct/off.config", "CONFIG_ARM64=y\nCONFIG_MODULES=y\nCONFIG_BS=y\n");
	struct kcve_err err = {0};
	struct kb_config *c = NULL;
	assert_int_equal(kb_config_load(&c, tpath("ct/on.config"), &err), 0);
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tpath("ct"), c, NULL, &err), 0); /* arm64, from the config */
	static const struct expect on[] = {
		{"arch/arm64/crypto/aes-glue.c", KB_COMPILED,
		 "as arch/arm64/crypto/aes-glue-ce.o by the rule at arch/arm64/crypto/Makefile:6"},
		{"arch/arm64/crypto/aes-ce-core.S", KB_COMPILED, NULL},
		{"arch/arm64/crypto/aes-neon.S", KB_NOT_COMPILED, NULL},
		{"arch/arm64/crypto/bs.c", KB_NOT_COMPILED, NULL},
		{"arch/arm64/crypto/linked.c", KB_UNKNOWN, "named in $(vobjs)"},
		{"arch/arm64/crypto/helped.c", KB_NOT_COMPILED, "CONFIG_OFF is not set"},
		{"arch/arm64/kvm/hyp/nvhe/switch.c", KB_COMPILED,
		 "as arch/arm64/kvm/hyp/nvhe/switch.nvhe.o by the rule at arch/arm64/kvm/hyp/nvhe/Makefile:10, "
		 "which the makefiles' rules build into arch/arm64/kvm/hyp/nvhe/kvm_nvhe.o"},
		{"arch/arm64/kvm/hyp/nvhe/entry.S", KB_COMPILED, "Makefile:12"},
		{"arch/arm64/kvm/hyp/shared.c", KB_COMPILED, "as arch/arm64/kvm/hyp/shared.nvhe.o"},
		{"arch/arm64/lib/clear_page.S", KB_COMPILED, "as arch/arm64/lib/clear_page.nvhe.o"},
		{"arch/arm64/kvm/hyp/nvhe/list_debug.c", KB_NOT_COMPILED, "hyp-obj-$(CONFIG_DEBUG_LIST)"},
		{"arch/arm64/kvm/hyp/nvhe/unused.c", KB_NOT_COMPILED, NULL},
		{"arch/arm64/kernel/vdso/vgettimeofday.c", KB_COMPILED,
		 "Kbuild's rule `$(obj)/%.o: $(src)/%.c`, which the makefiles' rules build into "
		 "arch/arm64/kernel/vdso-wrap.o"},
		{"arch/arm64/kernel/vdso/note.S", KB_COMPILED, NULL},
		{"arch/arm64/kernel/vdso32/note.c", KB_COMPILED,
		 "as arch/arm64/kernel/vdso32/note.o by the rule at arch/arm64/kernel/vdso32/Makefile:7"},
		{"arch/arm64/vdso/vg.c", KB_COMPILED, "build into arch/arm64/vdso/vdso.o"},
		{"arch/arm64/boot/compressed/misc.c", KB_COMPILED,
		 "build into arch/arm64/boot/zImage (built for the kernel image arch/arm64/boot/zImage, the default target"},
		{"arch/arm64/boot/compressed/fdt.c", KB_UNKNOWN, "$(build)="},
		{"arch/arm64/boot/compressed/other.c", KB_UNKNOWN, "$(build)="},
	};
	check_verdicts(t, on, sizeof(on) / sizeof(on[0]));
	/* obj-vdso is the vDSO makefile's own variable, never a Kconfig object list */
	const char *reason = NULL;
	kb_file_verdict(t, "arch/arm64/vdso/vg.c", &reason);
	assert_null(strstr(reason, "obj-vdso"));
	kb_tree_close(t);
	kb_config_free(c);

	/* the same tree with the listed objects off: their rules compile nothing */
	assert_int_equal(kb_config_load(&c, tpath("ct/off.config"), &err), 0);
	assert_int_equal(kb_tree_open(&t, tpath("ct"), c, "arm64", &err), 0);
	static const struct expect off[] = {
		{"arch/arm64/crypto/aes-glue.c", KB_NOT_COMPILED, NULL},
		{"arch/arm64/crypto/bs.c", KB_COMPILED, "as arch/arm64/crypto/bs-glue.o"},
		{"arch/arm64/kvm/hyp/nvhe/switch.c", KB_NOT_COMPILED, NULL},
		{"arch/arm64/kvm/hyp/shared.c", KB_NOT_COMPILED, NULL},
		{"arch/arm64/kernel/vdso/vgettimeofday.c", KB_COMPILED, NULL},
		{"arch/arm64/kernel/vdso32/note.c", KB_UNKNOWN, NULL},
	};
	check_verdicts(t, off, sizeof(off) / sizeof(off[0]));
	/* the condition export gives the sources their listed object's condition */
	char *buf = export_all(t);
	static const char *const lines[] = {
		"\narch/arm64/crypto/aes-glue.c\t(CONFIG_CE) || (CONFIG_NEON)\n",
		"\narch/arm64/kvm/hyp/nvhe/switch.c\tCONFIG_KVM\n",
		"\narch/arm64/kernel/vdso/vgettimeofday.c\ty\n",
		"\narch/arm64/kernel/vdso32/note.c\tCONFIG_COMPAT_VDSO\n",
		"\narch/arm64/boot/compressed/misc.c\ty\n",
	};
	expect_lines(buf, lines, sizeof(lines) / sizeof(lines[0]));
	kb_tree_close(t);
	kb_config_free(c);
}

/* --arch against the config's architecture (kb_config_check_arch): an error naming both */
static void test_arch_check(void **state)
{
	(void)state;
	struct kcve_err err = {0};
	struct kb_config *arm = parse("CONFIG_ARM64=y\nCONFIG_64BIT=y\n", &err);
	struct kb_config *x64 = parse("CONFIG_X86=y\nCONFIG_X86_64=y\nCONFIG_64BIT=y\n", &err);
	struct kb_config *x32 = parse("CONFIG_X86=y\nCONFIG_X86_32=y\n", &err);
	struct kb_config *none = parse("CONFIG_EXT4_FS=y\n", &err);
	assert_int_equal(kb_config_check_arch(arm, "arm64", &err), 0);
	assert_int_equal(kb_config_check_arch(x64, "x86", &err), 0);
	assert_int_equal(kb_config_check_arch(x64, "x86_64", &err), 0);
	assert_int_equal(kb_config_check_arch(x32, "i386", &err), 0);
	assert_int_equal(kb_config_check_arch(none, "arm", &err), 0);
	assert_int_equal(kb_config_check_arch(arm, NULL, &err), 0);
	assert_string_equal(kb_arch_srcarch("x86_64"), "x86");
	assert_string_equal(kb_arch_srcarch("arm64"), "arm64");
	assert_int_equal(kb_config_check_arch(arm, "x86", &err), KCVE_E_ARCH);
	assert_non_null(strstr(err.msg, "'x86'"));
	assert_non_null(strstr(err.msg, "CONFIG_ARM64=y"));
	assert_null(strchr(err.msg, '\n'));
	assert_int_equal(kb_config_check_arch(x64, "arm64", &err), KCVE_E_ARCH);
	assert_non_null(strstr(err.msg, "'arm64'"));
	assert_non_null(strstr(err.msg, "CONFIG_X86=y"));
	assert_int_equal(kb_config_check_arch(x64, "i386", &err), KCVE_E_ARCH);
	assert_non_null(strstr(err.msg, "64-bit"));
	assert_int_equal(kb_config_check_arch(x32, "x86_64", &err), KCVE_E_ARCH);
	assert_int_equal(kb_config_check_arch(arm, "arm", &err), KCVE_E_ARCH);
	/* kb_tree_open refuses it too, before reading the tree */
	struct kb_tree *t = NULL;
	assert_int_equal(kb_tree_open(&t, tpath("nowhere"), arm, "x86", &err), -1);
	assert_int_equal(err.code, KCVE_E_ARCH);
	assert_null(t);
	kb_config_free(arm);
	kb_config_free(x64);
	kb_config_free(x32);
	kb_config_free(none);
}

/* ---- make functions (the evaluator's function table) ---- */

/* Evaluate text in a fresh context without file system access; *uncertain and why say whether
 * some expansion could not be evaluated.  Returns the expansion of $(r). */
static char *make_eval(const char *text, bool *uncertain, char *why, size_t whysz)
{
	struct mk_vars globals, locals;
	mk_vars_init(&globals, 16);
	mk_vars_init(&locals, 64);
	struct mk_ctx c;
	mk_ctx_init(&c, &locals, &globals, NULL, "/nonexistent");
	c.no_fs = true;
	mk_eval_text(&c, text, strlen(text), "test/Makefile");
	struct strbuf sb = STRBUF_INIT;
	mk_expand_var(&c, "r", &sb);
	*uncertain = c.uncertain;
	snprintf(why, whysz, "%s", c.why);
	mk_ctx_release(&c);
	mk_vars_free(&locals);
	mk_vars_free(&globals);
	return sb_detach(&sb);
}

static void test_make_functions(void **state)
{
	(void)state;
	/* GNU make's documented results */
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"r := $(subst ee,EE,feet on the street)", "fEEt on the strEEt"},
		{"r := $(subst ,x,abc)", "abc"},
		{"r := $(patsubst %.c,%.o,x.c.c bar.c baz)", "x.c.o bar.o baz"},
		{"l := a.c b.c\nr := $(l:.c=.o) $(l:%.c=%.s)", "a.o b.o a.s b.s"},
		{"r := $(strip   a   b  c  )", "a b c"},
		{"r := $(findstring a,a b c)/$(findstring x,a b c)", "a/"},
		{"r := $(filter %.c %.s,foo.c bar.c baz.s ugh.h)", "foo.c bar.c baz.s"},
		{"r := $(filter-out %.c,foo.c ugh.h x)", "ugh.h x"},
		{"r := $(sort foo bar lose foo)", "bar foo lose"},
		{"r := $(word 2, foo bar baz)|$(wordlist 2,3,foo bar baz)|$(words foo bar baz)", "bar|bar baz|3"},
		{"r := $(firstword foo bar)$(lastword foo bar)", "foobar"},
		{"r := $(dir src/foo.c hacks)|$(notdir src/foo.c hacks)", "src/ ./|foo.c hacks"},
		{"r := $(suffix src/foo.c src-1.0/bar.c hacks)|$(basename src/foo.c src-1.0/bar hacks)",
		 ".c .c|src/foo src-1.0/bar hacks"},
		{"r := $(addsuffix .c,foo bar) $(addprefix src/,foo bar)", "foo.c bar.c src/foo src/bar"},
		{"r := $(join a b c,.c .o)|$(join a,.c .o)", "a.c b.o c|a.c .o"},
		/* empty first results cut an output buffer that was never allocated */
		{"r := $(join ,)", ""},
		{"r := $(foreach d,a b,)", ""},
		{"r := $(foreach d,a b,)$(join ,)x", "x"},
		{"r := $(if $(empty),yes,no) $(if x ,yes) $(if ,yes)", "no yes "},
		{"r := $(or $(empty),,b,c)|$(and a,b,c)|$(and a,,c)", "b|c|"},
		{"r := $(foreach d,a b c,$(d)/)|$(foreach d,a b c,$(if $(filter b,$(d)),,$(d)))", "a/ b/ c/|a c"},
		{"reverse = $(2) $(1)\nr := $(call reverse,a,b)", "b a"},
		{"FOO = $PATH\nS := s\nr := $(value FOO) $(origin FOO) $(origin NOPE) $(flavor FOO) $(flavor S)",
		 "$PATH file undefined recursive simple"},
		{"$(eval EV := evald)\nr := $(EV)", "evald"},
		{"r := $(abspath  a/b )$(realpath c)$(warning hi)$(info hi)", "a/bc"},
	};
	bool unc;
	char why[200];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = make_eval(cases[i].text, &unc, why, sizeof(why));
		if (strcmp(got, cases[i].want) || unc)
			fail_msg("'%s': got '%s'%s%s, want '%s'", cases[i].text, got, unc ? ", uncertain: " : "",
				 unc ? why : "", cases[i].want);
		free(got);
	}
	/* what depends on the build machine, or is malformed, makes the expansion uncertain (r is
	 * recursive so that the reason is the one of its own expansion) */
	static const struct {
		const char *text, *why;
	} open[] = {
		{"r = $(shell uname)", "$(shell ...) cannot be evaluated"},
		{"r = $(error stop)", "$(error ...) cannot be evaluated"},
		{"r = $(call cc-option,-O2)", "$(call cc-option) probes the compiler"},
		{"r = $(call nowhere,x)", "$(call nowhere) is not defined here"},
		{"r = $(word 1)", "$(word) with too few arguments"},
		{"r = $(subst a,b)", "$(subst) with too few arguments"},
		{"r = $(foreach x,y)", "$(foreach) with too few arguments"},
		{"r = $(wildcard *.c)", "$(wildcard) not evaluated"},
	};
	for (size_t i = 0; i < sizeof(open) / sizeof(open[0]); i++) {
		char *got = make_eval(open[i].text, &unc, why, sizeof(why));
		if (!unc || !strstr(why, open[i].why))
			fail_msg("'%s': %s (%s), want uncertain with '%s'", open[i].text,
				 unc ? "uncertain" : "certain", why, open[i].why);
		free(got);
	}
}

static int setup(void **state)
{
	(void)state;
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/kcve-kbuild-XXXXXX", base);
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir); /* test-owned temporary directory */
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_values),
		cmocka_unit_test(test_config_malformed),
		cmocka_unit_test(test_config_files),
		cmocka_unit_test(test_tree_verdicts),
		cmocka_unit_test(test_export_conditions),
		cmocka_unit_test(test_not_a_kernel),
		cmocka_unit_test(test_hostile_makefiles),
		cmocka_unit_test(test_build_dir),
		cmocka_unit_test(test_explicit_rule_source),
		cmocka_unit_test(test_rule_chains),
		cmocka_unit_test(test_arch_check),
		cmocka_unit_test(test_make_functions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
