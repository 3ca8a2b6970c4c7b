//! `registers [--source variant.wgsl ...] [--portable]`: what the Vulkan driver
//! says of each kernel's compiled pipeline (registers, shared memory, spills: the
//! statistics of VK_KHR_pipeline_executable_properties), one line a pipeline.
//! wgpu exposes no such query, and BENCHMARKS.md could only read occupancy from
//! `bench --stats`' "at once"; this compiles the same WGSL the library builds
//! (`teaching::shader_sources`) to SPIR-V with naga and the options wgpu's Vulkan
//! backend uses for the library's pipelines, on a device with the robustness wgpu
//! enables, so the driver sees what it sees under wgpu.
//!
//! The device: the first discrete GPU, else the first one (`REGISTERS_DEVICE=name`
//! picks by a part of its name). A driver without the extension (lavapipe) still
//! compiles every pipeline, each line then says `compiled` alone. Exit 1 where a
//! pipeline does not compile.

use std::collections::BTreeSet;
use std::ffi::CStr;
use std::io::Write;
use std::process::ExitCode;

use ash::vk;
use compaction_playground::cli;
use wgpu_compaction::teaching::layout::WIDE_BITS_SUBTILES;
use wgpu_compaction::teaching::{shader_sources, LookbackOptions};
use wgpu_compaction::Method;

const USAGE: &str = "usage: registers [--source tile-kernels-variant.wgsl ...] [--portable]";

compaction_playground::record_closed_streams!();

fn main() -> ExitCode {
    if compaction_playground::cli::closed_at_start(1) {
        eprintln!("registers: the standard output is closed: nowhere to write the table");
        return ExitCode::FAILURE;
    }
    let mut sources = Vec::new();
    let mut subgroups = true;
    let mut args = match cli::args() {
        Ok(args) => args.into_iter(),
        Err(e) => return fail(&e, 2),
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--source" => match args.next().map(|p| cli::read_source(&p).map(|t| (p, t))) {
                Some(Ok(source)) => sources.push(source),
                Some(Err(e)) => return fail(&e, 2),
                None => return fail("--source needs a file", 2),
            },
            "--portable" => subgroups = false,
            "--help" | "-h" => {
                let mut out = std::io::stdout().lock();
                return match writeln!(out, "{USAGE}").and_then(|()| out.flush()) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => cli::write_failed("registers", &e),
                };
            }
            other => {
                return fail(
                    &format!("unknown argument {}\n{USAGE}", cli::escaped(other)),
                    2,
                )
            }
        }
    }
    match run(&sources, subgroups) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Write(e)) => cli::write_failed("registers", &e),
        Err(Failure::Run(e)) => fail(&e, 1),
    }
}

fn fail(message: &str, code: u8) -> ExitCode {
    eprintln!("registers: {}", cli::shown(message));
    ExitCode::from(code)
}

/// Why a run stopped: stdout failed (a reader gone, a full disk), or the GPU's work.
enum Failure {
    Write(std::io::Error),
    Run(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Run(e)
    }
}

/// One pipeline to compile: its name in the output, the module's WGSL, the entry
/// point and its override constants.
struct Job {
    name: String,
    wgsl: String,
    entry_point: &'static str,
    constants: Vec<(&'static str, f64)>,
}

/// Every pipeline of every method, once, for the default kernels and the tile
/// kernels of each source; `lookback_bits` also as large arrays get it (two tiles
/// a state).
fn jobs(sources: &[(String, String)], subgroups: bool) -> Vec<Job> {
    let mut jobs = Vec::new();
    let variants = std::iter::once(None).chain(sources.iter().map(Some));
    for variant in variants {
        let options = LookbackOptions {
            source: variant.map(|(_, text)| &*String::leak(text.clone())),
            ..LookbackOptions::default()
        };
        let prefix = variant.map_or(String::new(), |(path, _)| format!("{path}: "));
        let mut seen = BTreeSet::new();
        for &method in Method::ALL.iter() {
            for module in shader_sources(method, &options, subgroups) {
                // A source replaces the tile kernels alone.
                if variant.is_some() && !module.label.starts_with("tiles") {
                    continue;
                }
                for pipeline in &module.pipelines {
                    if !seen.insert(pipeline.label.clone()) {
                        continue;
                    }
                    let mut add = |label: String, constants: Vec<(&'static str, f64)>| {
                        jobs.push(Job {
                            name: format!("{prefix}{}/{label}", module.label),
                            wgsl: module.wgsl.to_string(),
                            entry_point: pipeline.entry_point,
                            constants,
                        })
                    };
                    add(pipeline.label.clone(), pipeline.constants.clone());
                    if pipeline.entry_point == "lookback_bits"
                        && module.wgsl.contains("override SUBTILES")
                    {
                        let mut wide = pipeline.constants.clone();
                        wide.push(("SUBTILES", f64::from(WIDE_BITS_SUBTILES)));
                        add(
                            format!("{}:{WIDE_BITS_SUBTILES}tiles", pipeline.label),
                            wide,
                        );
                    }
                }
            }
        }
    }
    jobs
}

/// A Vulkan device with pipeline statistics and the robustness wgpu enables.
struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    /// None where the driver lacks VK_KHR_pipeline_executable_properties.
    statistics: Option<ash::khr::pipeline_executable_properties::Device>,
    name: String,
    /// robustBufferAccess2: wgpu then leaves buffer accesses to the driver.
    robust2: bool,
    subgroup_size_control: bool,
}

impl Drop for Gpu {
    fn drop(&mut self) {
        unsafe {
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn open() -> Result<Gpu, String> {
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    let instance = unsafe {
        entry.create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
    }
    .map_err(|e| format!("vkCreateInstance: {e}"))?;
    let physical = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| format!("vkEnumeratePhysicalDevices: {e}"))?;
    let named = |pd: &vk::PhysicalDevice| {
        let props = unsafe { instance.get_physical_device_properties(*pd) };
        let name = props.device_name_as_c_str().map(CStr::to_string_lossy);
        (
            props.device_type,
            name.map(|n| n.into_owned()).unwrap_or_default(),
        )
    };
    let wanted = std::env::var("REGISTERS_DEVICE").ok();
    let pick = physical
        .iter()
        .find(|pd| match &wanted {
            Some(part) => named(pd).1.contains(part.as_str()),
            None => named(pd).0 == vk::PhysicalDeviceType::DISCRETE_GPU,
        })
        .or(if wanted.is_none() {
            physical.first()
        } else {
            None
        })
        .copied()
        .ok_or("no Vulkan device (or none named as REGISTERS_DEVICE says)")?;
    let name = named(&pick).1;
    let extensions = unsafe { instance.enumerate_device_extension_properties(pick) }
        .map_err(|e| format!("vkEnumerateDeviceExtensionProperties: {e}"))?;
    let has = |wanted: &CStr| {
        extensions
            .iter()
            .any(|e| e.extension_name_as_c_str() == Ok(wanted))
    };
    let has_statistics = has(ash::khr::pipeline_executable_properties::NAME);
    let mut robustness2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut features = vk::PhysicalDeviceFeatures2::default();
    let has_robustness2 = has(ash::ext::robustness2::NAME);
    if has_robustness2 {
        features = features.push_next(&mut robustness2);
    }
    features = features.push_next(&mut v13);
    unsafe { instance.get_physical_device_features2(pick, &mut features) };
    let core = features.features;
    let robust2 = has_robustness2 && robustness2.robust_buffer_access2 == vk::TRUE;
    let subgroup_size_control = v13.subgroup_size_control == vk::TRUE;

    let queue = unsafe { instance.get_physical_device_queue_family_properties(pick) }
        .iter()
        .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
        .ok_or("no compute queue")? as u32;
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(queue)
        .queue_priorities(&priorities)];
    let mut names = Vec::new();
    let mut enable_robust2 =
        vk::PhysicalDeviceRobustness2FeaturesEXT::default().robust_buffer_access2(robust2);
    let mut enable_v13 =
        vk::PhysicalDeviceVulkan13Features::default().subgroup_size_control(subgroup_size_control);
    let mut enable_stats = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let enable_core = vk::PhysicalDeviceFeatures::default()
        .robust_buffer_access(core.robust_buffer_access == vk::TRUE);
    let mut info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&enable_core)
        .push_next(&mut enable_v13);
    if has_statistics {
        names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        info = info.push_next(&mut enable_stats);
    }
    if robust2 {
        names.push(ash::ext::robustness2::NAME.as_ptr());
        info = info.push_next(&mut enable_robust2);
    }
    let info = info.enabled_extension_names(&names);
    let device = unsafe { instance.create_device(pick, &info, None) }
        .map_err(|e| format!("vkCreateDevice: {e}"))?;
    let statistics = has_statistics
        .then(|| ash::khr::pipeline_executable_properties::Device::new(&instance, &device));
    Ok(Gpu {
        _entry: entry,
        instance,
        device,
        statistics,
        name,
        robust2,
        subgroup_size_control,
    })
}

/// naga's SPIR-V of the job's `module` as wgpu's Vulkan backend writes it for the
/// library's pipelines (checked build, no zero-initialised workgroup memory).
fn spirv(gpu: &Gpu, job: &Job, module: &naga::Module) -> Result<Vec<u32>, String> {
    use naga::back::spv;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(module)
    .map_err(|e| e.emit_to_string(&job.wgsl))?;
    let mut constants = naga::back::PipelineConstants::default();
    for &(name, value) in &job.constants {
        constants.insert(name.to_string(), value);
    }
    let stage = naga::ShaderStage::Compute;
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        module,
        &info,
        Some((stage, job.entry_point)),
        &constants,
    )
    .map_err(|e| e.to_string())?;
    let options = spv::Options {
        lang_version: (1, 6),
        flags: spv::WriterFlags::LABEL_VARYINGS | spv::WriterFlags::FORCE_POINT_SIZE,
        // wgpu renumbers bindings consecutively; the same numbers serve here.
        fake_missing_bindings: true,
        bounds_check_policies: naga::proc::BoundsCheckPolicies {
            index: naga::proc::BoundsCheckPolicy::Restrict,
            buffer: if gpu.robust2 {
                naga::proc::BoundsCheckPolicy::Unchecked
            } else {
                naga::proc::BoundsCheckPolicy::Restrict
            },
            image_load: naga::proc::BoundsCheckPolicy::Unchecked,
            binding_array: naga::proc::BoundsCheckPolicy::Unchecked,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::None,
        force_loop_bounding: true,
        ..spv::Options::default()
    };
    let pipeline = spv::PipelineOptions {
        shader_stage: stage,
        entry_point: job.entry_point.to_string(),
    };
    spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| e.to_string())
}

/// The storage and uniform buffers of group 0 that the module declares.
fn layout_bindings(module: &naga::Module) -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
    let mut bindings = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else {
            continue;
        };
        let kind = match var.space {
            naga::AddressSpace::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
            naga::AddressSpace::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
            _ => continue,
        };
        bindings.push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding.binding)
                .descriptor_type(kind)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        );
    }
    bindings
}

/// The driver's statistics of each executable of the job's pipeline, as
/// `name=value` words.
fn statistics(gpu: &Gpu, job: &Job, subgroups: bool) -> Result<Vec<String>, String> {
    // Parsed once: the SPIR-V and the pipeline layout both come from it.
    let module =
        naga::front::wgsl::parse_str(&job.wgsl).map_err(|e| e.emit_to_string(&job.wgsl))?;
    let words = spirv(gpu, job, &module)?;
    let bindings = layout_bindings(&module);
    let device = &gpu.device;
    let vk_err = |what: &'static str| move |e: vk::Result| format!("{what}: {e}");
    unsafe {
        let module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
            .map_err(vk_err("vkCreateShaderModule"))?;
        let set = device
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
        let sets = [set];
        let layout = device
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&sets),
                None,
            )
            .map_err(vk_err("vkCreatePipelineLayout"))?;
        let entry = std::ffi::CString::new(job.entry_point).map_err(|e| e.to_string())?;
        let mut stage_flags = vk::PipelineShaderStageCreateFlags::empty();
        if subgroups && gpu.subgroup_size_control {
            // As wgpu creates its stages on devices with SUBGROUP.
            stage_flags |= vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE;
        }
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .flags(stage_flags)
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        let capture = match gpu.statistics {
            Some(_) => vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR,
            None => vk::PipelineCreateFlags::empty(),
        };
        let create = [vk::ComputePipelineCreateInfo::default()
            .flags(capture)
            .stage(stage)
            .layout(layout)];
        let made = device.create_compute_pipelines(vk::PipelineCache::null(), &create, None);
        let result = match made {
            Ok(pipelines) => {
                let read = read_statistics(gpu, pipelines[0]);
                device.destroy_pipeline(pipelines[0], None);
                read
            }
            Err((_, e)) => Err(format!("vkCreateComputePipelines: {e}")),
        };
        device.destroy_pipeline_layout(layout, None);
        device.destroy_descriptor_set_layout(set, None);
        device.destroy_shader_module(module, None);
        result
    }
}

unsafe fn read_statistics(gpu: &Gpu, pipeline: vk::Pipeline) -> Result<Vec<String>, String> {
    let Some(statistics) = &gpu.statistics else {
        return Ok(vec!["compiled".to_string()]);
    };
    let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
    let executables = statistics
        .get_pipeline_executable_properties(&info)
        .map_err(|e| format!("vkGetPipelineExecutablePropertiesKHR: {e}"))?;
    let mut out = Vec::new();
    for index in 0..executables.len() as u32 {
        let executable = vk::PipelineExecutableInfoKHR::default()
            .pipeline(pipeline)
            .executable_index(index);
        let stats = statistics
            .get_pipeline_executable_statistics(&executable)
            .map_err(|e| format!("vkGetPipelineExecutableStatisticsKHR: {e}"))?;
        for stat in &stats {
            let name = stat
                .name_as_c_str()
                .map(CStr::to_string_lossy)
                .unwrap_or_default();
            let value = match stat.format {
                vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                    (stat.value.b32 != 0).to_string()
                }
                vk::PipelineExecutableStatisticFormatKHR::INT64 => stat.value.i64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::UINT64 => stat.value.u64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => stat.value.f64.to_string(),
                _ => "?".to_string(),
            };
            out.push(format!("{}={value}", name.replace(' ', "_")));
        }
    }
    Ok(out)
}

fn run(sources: &[(String, String)], subgroups: bool) -> Result<(), Failure> {
    let gpu = open()?;
    let mut out = std::io::stdout().lock();
    let mut line = |text: std::fmt::Arguments| writeln!(out, "{text}").map_err(Failure::Write);
    line(format_args!(
        "registers: {}; {} build; robustBufferAccess2 {}{}",
        gpu.name,
        if subgroups { "subgroups" } else { "portable" },
        gpu.robust2,
        match gpu.statistics {
            Some(_) => "",
            None => "; no statistics: the driver lacks VK_KHR_pipeline_executable_properties",
        }
    ))?;
    let mut failed = 0;
    for job in jobs(sources, subgroups) {
        match statistics(&gpu, &job, subgroups) {
            Ok(stats) => line(format_args!("{}  {}", job.name, stats.join(" ")))?,
            Err(e) => {
                failed += 1;
                let first = e.lines().next().unwrap_or("");
                line(format_args!("{}  error: {}", job.name, cli::escaped(first)))?;
            }
        }
    }
    out.flush().map_err(Failure::Write)?;
    if failed > 0 {
        return Err(Failure::Run(format!("{failed} pipelines did not compile")));
    }
    Ok(())
}
