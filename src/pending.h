/*
 * pending.h - functions of other helpers' modules that may not be merged yet
 * (readers: jh_profile_*, symelf: jh_symbolizer_*). Declared weak so that
 * this branch links on its own; callers check for NULL and report "not built
 * yet". REMOVE this file once profile.c and the symbolizer are in main (weak
 * references do not pull members out of the static library).
 */
#ifndef JEHEAP_PENDING_H
#define JEHEAP_PENDING_H

#include "jeheap/profile.h"
#include "jeheap/symbolize.h"

#pragma weak jh_profile_init
#pragma weak jh_profile_release
#pragma weak jh_profile_read
#pragma weak jh_symbolizer_new
#pragma weak jh_symbolizer_free
#pragma weak jh_symbolize

#endif
