'use strict';
// devices(): the CPU and every Vulkan device, as the library sees them.

const { koffi, fn, check, DeviceInfo, DEVICE_INFO_SIZE } = require('./library');

/** scatter_device_type values (scatter.h) -> names. */
const DEVICE_TYPES = Object.freeze({ 0: 'other', 1: 'integrated_gpu', 2: 'discrete_gpu', 3: 'virtual_gpu', 4: 'cpu' });
/** SCATTER_FEATURE_* names, bit k of the mask being FEATURES[k]. */
const FEATURES = Object.freeze([
  'int8', 'int16', 'int64', 'float16', 'float64', 'storage8', 'storage16', 'int64_atomics',
  'float32_atomic_add', 'float32_atomic_minmax', 'subgroups', 'buffer_device_address',
  'denorm_preserve32', 'denorm_preserve64', 'shared_int64_atomics',
]);

function apiVersion(packed) {
  if (packed === 0) return '';
  return `${(packed >>> 22) & 0x7f}.${(packed >>> 12) & 0x3ff}.${packed & 0xfff}`;
}

/**
 * The devices libscatter can use: the CPU first, then every Vulkan device in driver order.
 * Vulkan being absent is not an error: the list then holds only the CPU.
 * @returns {Array<{index: number, backend: string, type: string, name: string, vendorId: number,
 *   deviceId: number, apiVersion: string, threadCount: number, features: string[],
 *   maxBufferRange: bigint}>}
 */
function devices() {
  const count = new Uint32Array(1);
  check(fn.scatter_devices(null, count));
  // One byte buffer for every entry, each starting with its struct_size; the library fills it in
  // place and koffi decodes the entries from it.
  const bytes = new Uint8Array(Math.max(count[0], 1) * DEVICE_INFO_SIZE);
  const words = new Uint32Array(bytes.buffer);
  for (let k = 0; k < count[0]; k++) words[(k * DEVICE_INFO_SIZE) / 4] = DEVICE_INFO_SIZE;
  check(fn.scatter_devices(bytes, count));
  const result = [];
  for (let k = 0; k < count[0]; k++) {
    const info = koffi.decode(bytes, k * DEVICE_INFO_SIZE, DeviceInfo);
    const features = BigInt(info.features);
    result.push({
      index: info.index,
      backend: fn.scatter_backend_name(info.backend),
      type: DEVICE_TYPES[info.type] || 'other',
      name: info.name,
      vendorId: info.vendor_id,
      deviceId: info.device_id,
      apiVersion: apiVersion(info.api_version),
      threadCount: info.thread_count,
      features: FEATURES.filter((_, bit) => (features >> BigInt(bit)) & 1n),
      maxBufferRange: BigInt(info.max_buffer_range),
    });
  }
  return result;
}

module.exports = { devices, DEVICE_TYPES, FEATURES };
