//! `--no-robustness`: the same device without the driver's robust buffer access
//! (robustBufferAccess and VK_EXT_robustness2's robustBufferAccess2 off), for
//! measurement only. wgpu enables both wherever they are offered and has no
//! switch for them; what they cost the kernels (a bounds check the driver may add
//! to every load and store) is what this measures. The kernels guard every index
//! themselves (the exact checks of each run say so); naga already leaves buffer
//! accesses unclamped where robustBufferAccess2 is offered.
//!
//! The device is made the way wgpu's Vulkan backend makes its own, with every
//! extension it asks for and every feature the adapter offers but those two, and
//! handed to wgpu (`create_device_from_hal`).

use ash::vk;

use compaction_playground::GpuContext;

/// Replaces `gpu`'s device and queue with ones without robust buffer access, with
/// the same features and limits.
pub fn drop_robustness(gpu: &mut GpuContext) -> Result<(), String> {
    let features = gpu.device.features();
    let limits = gpu.device.limits();
    // SAFETY: the raw device is created from this adapter's own physical device
    // with the extensions wgpu-hal requires for `features` and a superset of the
    // features it enables but the robustness ones, as `device_from_raw` asks; it is
    // handed to wgpu, which owns and destroys it.
    let open = unsafe {
        let adapter = gpu
            .adapter
            .as_hal::<wgpu::hal::api::Vulkan>()
            .ok_or("--no-robustness needs a Vulkan adapter")?;
        let instance = adapter.shared_instance().raw_instance();
        let physical = adapter.raw_physical_device();
        let extensions = adapter.required_device_extensions(features);
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut offered = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13);
        instance.get_physical_device_features2(physical, &mut offered);
        let core = offered.features.robust_buffer_access(false);
        // The offered structs again, their chain pointers cleared.
        v11.p_next = std::ptr::null_mut();
        v12.p_next = std::ptr::null_mut();
        v13.p_next = std::ptr::null_mut();
        let names: Vec<*const std::ffi::c_char> = extensions.iter().map(|e| e.as_ptr()).collect();
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .enabled_features(&core)
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13);
        let raw = instance
            .create_device(physical, &info, None)
            .map_err(|e| format!("--no-robustness: vkCreateDevice: {e}"))?;
        adapter
            .device_from_raw(
                raw,
                None,
                &extensions,
                features,
                &limits,
                &wgpu::MemoryHints::Performance,
                0,
                0,
            )
            .map_err(|e| format!("--no-robustness: {e}"))?
    };
    let (device, queue) = unsafe {
        gpu.adapter.create_device_from_hal(
            open,
            &wgpu::DeviceDescriptor {
                label: Some("compaction, no robustness"),
                required_features: features,
                required_limits: limits,
                ..Default::default()
            },
        )
    }
    .map_err(|e| format!("--no-robustness: {e}"))?;
    gpu.device = device;
    gpu.queue = queue;
    Ok(())
}
