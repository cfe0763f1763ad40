/* SPDX-License-Identifier: MIT */
/*
 * version.c: the library's version, from CMakeLists.txt's project(VERSION) (passed as
 * WGSCAN_VERSION_STRING), checked against the macros of wgscan.h so the two never drift.
 */
#include "wgscan.h"

#ifndef WGSCAN_VERSION_STRING
#define WGSCAN_VERSION_STRING_(a, b, c) #a "." #b "." #c
#define WGSCAN_VERSION_STRING_X(a, b, c) WGSCAN_VERSION_STRING_(a, b, c)
#define WGSCAN_VERSION_STRING \
    WGSCAN_VERSION_STRING_X(WGSCAN_VERSION_MAJOR, WGSCAN_VERSION_MINOR, WGSCAN_VERSION_PATCH)
#endif

#if defined(WGSCAN_PROJECT_VERSION_NUMBER) && WGSCAN_PROJECT_VERSION_NUMBER != WGSCAN_VERSION_NUMBER
#error "wgscan.h's WGSCAN_VERSION_* differ from CMakeLists.txt's project(VERSION)"
#endif

unsigned wgs_version(void) { return WGSCAN_VERSION_NUMBER; }

const char *wgs_version_string(void) { return WGSCAN_VERSION_STRING; }
