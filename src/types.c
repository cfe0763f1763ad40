/* SPDX-License-Identifier: MIT */
/*
 * types.c: element types and operators: sizes, names, identities, and which pairs a
 * device can run.
 */
#include "internal.h"

size_t wgs_type_size(wgs_type type) {
    switch (type) {
    case WGS_TYPE_DEFAULT:
    case WGS_TYPE_U32:
    case WGS_TYPE_I32:
    case WGS_TYPE_F32: return 4;
    case WGS_TYPE_F16: return 2;
    case WGS_TYPE_U64:
    case WGS_TYPE_I64: return 8;
    default: return 0;
    }
}

const char *wgs_type_name(wgs_type type) {
    switch (type) {
    case WGS_TYPE_DEFAULT:
    case WGS_TYPE_U32: return "u32";
    case WGS_TYPE_I32: return "i32";
    case WGS_TYPE_F32: return "f32";
    case WGS_TYPE_F16: return "f16";
    case WGS_TYPE_U64: return "u64";
    case WGS_TYPE_I64: return "i64";
    default: return "?";
    }
}

const char *wgs_op_name(wgs_op op) {
    switch (op) {
    case WGS_OP_DEFAULT:
    case WGS_OP_ADD: return "add";
    case WGS_OP_MIN: return "min";
    case WGS_OP_MAX: return "max";
    case WGS_OP_AND: return "and";
    case WGS_OP_OR: return "or";
    case WGS_OP_XOR: return "xor";
    case WGS_OP_ARGMIN: return "argmin";
    case WGS_OP_ARGMAX: return "argmax";
    default: return "?";
    }
}

uint32_t wgs__identity_bits(wgs_type type, wgs_op op) {
    switch (op) {
    case WGS_OP_MIN:
        switch (type) {
        case WGS_TYPE_I32: return 0x7FFFFFFFu;
        case WGS_TYPE_F32: return 0x7F800000u; /* +inf */
        case WGS_TYPE_F16: return 0x7C00u;     /* +inf */
        default: return 0xFFFFFFFFu;
        }
    case WGS_OP_MAX:
        switch (type) {
        case WGS_TYPE_I32: return 0x80000000u;
        case WGS_TYPE_F32: return 0xFF800000u; /* -inf */
        case WGS_TYPE_F16: return 0xFC00u;     /* -inf */
        default: return 0u;
        }
    case WGS_OP_AND: return 0xFFFFFFFFu;
    default: return 0u; /* add, or, xor; +0.0 for floats */
    }
}

wgs_result wgs__check_type_op(wgs_context *ctx, wgs_type type, wgs_op op) {
    WGS_FAIL_IF(ctx, type == WGS_TYPE_DEFAULT || (unsigned)type > WGS_TYPE_F16, WGS_ERROR_UNSUPPORTED_TYPE,
                "unknown element type %d", (int)type);
    WGS_FAIL_IF(ctx, op == WGS_OP_DEFAULT || (unsigned)op > WGS_OP_XOR, WGS_ERROR_UNSUPPORTED_OPERATOR,
                "unknown operator %d", (int)op);
    int is_float = type == WGS_TYPE_F32 || type == WGS_TYPE_F16;
    WGS_FAIL_IF(ctx, is_float && op >= WGS_OP_AND, WGS_ERROR_UNSUPPORTED_OPERATOR,
                "operator %s is defined for integer types only, not %s", wgs_op_name(op), wgs_type_name(type));
    WGS_FAIL_IF(ctx, type == WGS_TYPE_F16 && !ctx->caps.info.has_shader_f16, WGS_ERROR_FEATURE_MISSING,
                "f16 needs the shader-f16 feature, which %s lacks",
                ctx->caps.info.device[0] ? ctx->caps.info.device : "this device");
    return WGS_OK;
}
