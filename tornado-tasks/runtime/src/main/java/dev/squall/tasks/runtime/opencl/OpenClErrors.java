package dev.squall.tasks.runtime.opencl;

import dev.squall.tasks.runtime.DeviceException;

import java.util.Map;

/** OpenCL error codes (Khronos {@code cl.h}) to their names, and the exceptions built from them. */
final class OpenClErrors {
    static final int CL_SUCCESS = 0;
    static final int CL_DEVICE_NOT_FOUND = -1;
    static final int CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
    static final int CL_OUT_OF_RESOURCES = -5;
    static final int CL_OUT_OF_HOST_MEMORY = -6;
    static final int CL_PROFILING_INFO_NOT_AVAILABLE = -7;
    static final int CL_BUILD_PROGRAM_FAILURE = -11;
    static final int CL_INVALID_VALUE = -30;
    static final int CL_INVALID_BINARY = -42;
    static final int CL_INVALID_KERNEL_NAME = -46;
    static final int CL_INVALID_ARG_INDEX = -49;
    static final int CL_INVALID_ARG_VALUE = -50;
    static final int CL_INVALID_ARG_SIZE = -51;
    static final int CL_INVALID_KERNEL_ARGS = -52;
    static final int CL_INVALID_WORK_DIMENSION = -53;
    static final int CL_INVALID_WORK_GROUP_SIZE = -54;
    static final int CL_INVALID_WORK_ITEM_SIZE = -55;
    static final int CL_INVALID_GLOBAL_WORK_SIZE = -63;
    static final int CL_PLATFORM_NOT_FOUND_KHR = -1001;

    private static final Map<Integer, String> NAMES = Map.<Integer, String>ofEntries(
            Map.entry(0, "CL_SUCCESS"),
            Map.entry(-1, "CL_DEVICE_NOT_FOUND"),
            Map.entry(-2, "CL_DEVICE_NOT_AVAILABLE"),
            Map.entry(-3, "CL_COMPILER_NOT_AVAILABLE"),
            Map.entry(-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"),
            Map.entry(-5, "CL_OUT_OF_RESOURCES"),
            Map.entry(-6, "CL_OUT_OF_HOST_MEMORY"),
            Map.entry(-7, "CL_PROFILING_INFO_NOT_AVAILABLE"),
            Map.entry(-8, "CL_MEM_COPY_OVERLAP"),
            Map.entry(-9, "CL_IMAGE_FORMAT_MISMATCH"),
            Map.entry(-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"),
            Map.entry(-11, "CL_BUILD_PROGRAM_FAILURE"),
            Map.entry(-12, "CL_MAP_FAILURE"),
            Map.entry(-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"),
            Map.entry(-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"),
            Map.entry(-15, "CL_COMPILE_PROGRAM_FAILURE"),
            Map.entry(-16, "CL_LINKER_NOT_AVAILABLE"),
            Map.entry(-17, "CL_LINK_PROGRAM_FAILURE"),
            Map.entry(-18, "CL_DEVICE_PARTITION_FAILED"),
            Map.entry(-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"),
            Map.entry(-30, "CL_INVALID_VALUE"),
            Map.entry(-31, "CL_INVALID_DEVICE_TYPE"),
            Map.entry(-32, "CL_INVALID_PLATFORM"),
            Map.entry(-33, "CL_INVALID_DEVICE"),
            Map.entry(-34, "CL_INVALID_CONTEXT"),
            Map.entry(-35, "CL_INVALID_QUEUE_PROPERTIES"),
            Map.entry(-36, "CL_INVALID_COMMAND_QUEUE"),
            Map.entry(-37, "CL_INVALID_HOST_PTR"),
            Map.entry(-38, "CL_INVALID_MEM_OBJECT"),
            Map.entry(-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"),
            Map.entry(-40, "CL_INVALID_IMAGE_SIZE"),
            Map.entry(-41, "CL_INVALID_SAMPLER"),
            Map.entry(-42, "CL_INVALID_BINARY"),
            Map.entry(-43, "CL_INVALID_BUILD_OPTIONS"),
            Map.entry(-44, "CL_INVALID_PROGRAM"),
            Map.entry(-45, "CL_INVALID_PROGRAM_EXECUTABLE"),
            Map.entry(-46, "CL_INVALID_KERNEL_NAME"),
            Map.entry(-47, "CL_INVALID_KERNEL_DEFINITION"),
            Map.entry(-48, "CL_INVALID_KERNEL"),
            Map.entry(-49, "CL_INVALID_ARG_INDEX"),
            Map.entry(-50, "CL_INVALID_ARG_VALUE"),
            Map.entry(-51, "CL_INVALID_ARG_SIZE"),
            Map.entry(-52, "CL_INVALID_KERNEL_ARGS"),
            Map.entry(-53, "CL_INVALID_WORK_DIMENSION"),
            Map.entry(-54, "CL_INVALID_WORK_GROUP_SIZE"),
            Map.entry(-55, "CL_INVALID_WORK_ITEM_SIZE"),
            Map.entry(-56, "CL_INVALID_GLOBAL_OFFSET"),
            Map.entry(-57, "CL_INVALID_EVENT_WAIT_LIST"),
            Map.entry(-58, "CL_INVALID_EVENT"),
            Map.entry(-59, "CL_INVALID_OPERATION"),
            Map.entry(-60, "CL_INVALID_GL_OBJECT"),
            Map.entry(-61, "CL_INVALID_BUFFER_SIZE"),
            Map.entry(-62, "CL_INVALID_MIP_LEVEL"),
            Map.entry(-63, "CL_INVALID_GLOBAL_WORK_SIZE"),
            Map.entry(-64, "CL_INVALID_PROPERTY"),
            Map.entry(-65, "CL_INVALID_IMAGE_DESCRIPTOR"),
            Map.entry(-66, "CL_INVALID_COMPILER_OPTIONS"),
            Map.entry(-67, "CL_INVALID_LINKER_OPTIONS"),
            Map.entry(-68, "CL_INVALID_DEVICE_PARTITION_COUNT"),
            Map.entry(-69, "CL_INVALID_PIPE_SIZE"),
            Map.entry(-70, "CL_INVALID_DEVICE_QUEUE"),
            Map.entry(-71, "CL_INVALID_SPEC_ID"),
            Map.entry(-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"),
            Map.entry(-1001, "CL_PLATFORM_NOT_FOUND_KHR"));

    private OpenClErrors() {
    }

    /** "CL_OUT_OF_RESOURCES" or "CL_UNKNOWN_ERROR" for codes not in the table. */
    static String name(int code) {
        return NAMES.getOrDefault(code, "CL_UNKNOWN_ERROR");
    }

    /** "CL_OUT_OF_RESOURCES (-5)". */
    static String describe(int code) {
        return name(code) + " (" + code + ")";
    }

    static boolean isOutOfMemory(int code) {
        return code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_RESOURCES || code == CL_OUT_OF_HOST_MEMORY;
    }

    static boolean isBadArgument(int code) {
        return switch (code) {
            case CL_INVALID_ARG_INDEX, CL_INVALID_ARG_VALUE, CL_INVALID_ARG_SIZE, CL_INVALID_KERNEL_ARGS,
                 CL_INVALID_WORK_DIMENSION, CL_INVALID_WORK_GROUP_SIZE, CL_INVALID_WORK_ITEM_SIZE,
                 CL_INVALID_GLOBAL_WORK_SIZE -> true;
            default -> false;
        };
    }

    /** The message every failing call carries: function, code name and number, device. */
    static String message(String function, int code, String deviceId) {
        return function + " failed: " + describe(code) + " on " + deviceId;
    }

    /** A DeviceException of the kind the code suggests (OUT_OF_MEMORY, BAD_ARGUMENT, else DRIVER_ERROR). */
    static DeviceException exception(String function, int code, String deviceId, String detail) {
        DeviceException.Kind kind = isOutOfMemory(code) ? DeviceException.Kind.OUT_OF_MEMORY
                : isBadArgument(code) ? DeviceException.Kind.BAD_ARGUMENT
                : DeviceException.Kind.DRIVER_ERROR;
        String msg = message(function, code, deviceId);
        return new DeviceException(kind, detail == null || detail.isEmpty() ? msg : msg + ": " + detail);
    }

    /** Throws unless {@code code} is CL_SUCCESS. */
    static void check(int code, String function, String deviceId) {
        if (code != CL_SUCCESS) throw exception(function, code, deviceId, null);
    }
}
