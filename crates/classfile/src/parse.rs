//! Parsing of the class file structure (JVMS 17 §4.1, §4.5-§4.7) into the model of
//! `model.rs`, with the class-, field-, method- and attribute-level format checks of §4.8.
//! Unknown attributes (and known ones the class file version predates) are skipped.

use crate::access::*;
use crate::constant_pool::{
    Constant, ConstantPool, check_name_and_descriptor, check_pool, is_unqualified_name, parse_pool,
};
use crate::descriptor::{is_valid_field_descriptor, method_shape};
use crate::error::{ClassFormatError, Result, bail, cfe};
use crate::model::*;
use crate::reader::Reader;

/// Oldest and newest supported major versions (JDK 1.1 .. JDK 17).
pub const MIN_MAJOR_VERSION: u16 = 45;
pub const MAX_MAJOR_VERSION: u16 = 61;

impl ClassFile {
    /// Parse and format-check (JVMS 17 §4, §4.8) a class file. Never panics.
    pub fn parse(bytes: &[u8]) -> std::result::Result<ClassFile, ClassFormatError> {
        Self::parse_expecting(bytes, None)
    }

    /// [`ClassFile::parse`] for a class a loader asked for by name: a class file naming
    /// another class fails with the [`ClassFormatError::wrong_name`] error as soon as its
    /// name is read (after the constant pool and the access flags), as in HotSpot, before
    /// the format checks of the rest of the file.
    pub fn parse_expecting(
        bytes: &[u8],
        expected: Option<&str>,
    ) -> std::result::Result<ClassFile, ClassFormatError> {
        let mut known_name = None;
        parse_class(bytes, expected, &mut known_name).map_err(|mut e| {
            let marked = e.is_not_a_class() || e.is_wrong_name();
            if let Some(name) = known_name.filter(|_| !marked) {
                e.0.push_str(" in class file ");
                e.0.push_str(&name);
            }
            e
        })
    }
}

/// Whether class files using preview features (`--enable-preview`) are taken; one setting for
/// the process, as in HotSpot.
static PREVIEW: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets class files of the newest version use preview features (java's `--enable-preview`).
pub fn enable_preview() {
    PREVIEW.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The minor version of class files that use preview features.
const PREVIEW_MINOR: u16 = 0xFFFF;

/// HotSpot's version check (`verify_class_version`): majors 45..=61; from 56 (Java 12) on the
/// minor must be 0, or 0xFFFF for preview features, which only the newest version has and only
/// with `--enable-preview` (without it such a class file gets its own message). All of these are
/// UnsupportedClassVersionError.
fn check_version(major: u16, minor: u16) -> Result<()> {
    let preview = major == MAX_MAJOR_VERSION && minor == PREVIEW_MINOR;
    if preview && !PREVIEW.load(std::sync::atomic::Ordering::Relaxed) {
        bail!(
            "{} {major}.{minor}",
            crate::error::PREVIEW_NOT_ENABLED_PREFIX
        );
    }
    let ok = (MIN_MAJOR_VERSION..=MAX_MAJOR_VERSION).contains(&major)
        && (major < 56 || minor == 0 || preview);
    if !ok {
        bail!(
            "{} {major}.{minor}",
            crate::error::UNSUPPORTED_VERSION_PREFIX
        );
    }
    Ok(())
}

/// Per-class parsing context.
struct Ctx<'c> {
    cp: &'c ConstantPool,
    /// The class's own name.
    name: &'c str,
    major: u16,
    is_interface: bool,
}

impl<'c> Ctx<'c> {
    fn utf8(&self, index: u16, what: &str) -> Result<&'c str> {
        self.cp
            .utf8(index)
            .ok_or_else(|| cfe!("Invalid constant pool index {index} in {what}"))
    }

    fn is_class(&self, index: u16) -> bool {
        matches!(self.cp.get(index), Some(Constant::Class { .. }))
    }

    fn class(&self, index: u16, what: &str) -> Result<u16> {
        if self.is_class(index) {
            Ok(index)
        } else {
            bail!("{what} has bad constant pool index {index}")
        }
    }

    /// Reads one attribute header; returns its name and contents.
    fn attribute<'b>(&self, r: &mut Reader<'b>) -> Result<(&'c str, &'b [u8])> {
        let name_index = r.u16()?;
        let len = r.u32()?;
        let len = usize::try_from(len).map_err(|_| cfe!("Truncated class file"))?;
        let data = r.bytes(len)?;
        let name = self.utf8(name_index, "attribute name")?;
        Ok((name, data))
    }

    /// A Signature attribute's text.
    fn signature(&self, data: &[u8]) -> Result<String> {
        let index = single_u16(data, "Signature")?;
        Ok(self.utf8(index, "Signature attribute")?.to_owned())
    }
}

fn set_once<T>(slot: &mut Option<T>, value: T, what: &str) -> Result<()> {
    if slot.is_some() {
        bail!("Multiple {what} attributes");
    }
    *slot = Some(value);
    Ok(())
}

fn single_u16(data: &[u8], what: &'static str) -> Result<u16> {
    let mut r = Reader::attribute(data, what);
    let v = r.u16()?;
    r.finish()?;
    Ok(v)
}

fn empty_attribute(name: &str, data: &[u8]) -> Result<()> {
    if !data.is_empty() {
        bail!("Invalid {name} attribute length {}", data.len());
    }
    Ok(())
}

fn parse_class(
    bytes: &[u8],
    expected: Option<&str>,
    known_name: &mut Option<String>,
) -> Result<ClassFile> {
    // Like HotSpot, a file too short for magic and version is simply truncated.
    if bytes.len() < 8 {
        bail!("Truncated class file");
    }
    let mut r = Reader::new(bytes);
    let magic = r.u32()?;
    if magic != 0xCAFE_BABE {
        bail!("Incompatible magic value {magic}");
    }
    let minor_version = r.u16()?;
    let major_version = r.u16()?;
    check_version(major_version, minor_version)?;
    let major = major_version;
    let cp = parse_pool(&mut r, major)?;

    let raw_flags = r.u16()?;
    let this_class = r.u16()?;
    let Some(name) = cp.class_name(this_class) else {
        bail!("Invalid this class index {this_class} in constant pool");
    };
    *known_name = Some(name.to_owned());
    let summary = check_pool(&cp, major)?;
    if name.starts_with('[') {
        bail!("Bad class name");
    }

    // HotSpot: a class file with ACC_MODULE (from version 53) is a module descriptor, not a
    // class; defining it is NoClassDefFoundError, whatever else it holds.
    if major >= 53 && raw_flags & ACC_MODULE != 0 {
        return Err(ClassFormatError::not_a_class(name));
    }
    let mut flags = raw_flags & RECOGNIZED_CLASS_FLAGS & !ACC_MODULE;
    if summary.has_module_entries {
        bail!(
            "Illegal constant pool tag: CONSTANT_Module and CONSTANT_Package only allowed in module-info"
        );
    }
    if flags & ACC_INTERFACE != 0 && major < 50 {
        flags |= ACC_ABSTRACT;
    }
    crate::check::check_class_flags(flags, major)?;
    if let Some(expected) = expected.filter(|e| *e != name) {
        return Err(ClassFormatError::wrong_name(expected, name));
    }
    let is_interface = flags & ACC_INTERFACE != 0;
    let ctx = Ctx {
        cp: &cp,
        name,
        major,
        is_interface,
    };

    // super_class
    let super_index = r.u16()?;
    let is_object = name == "java/lang/Object";
    let super_name = if super_index == 0 {
        if !is_object {
            bail!("Invalid superclass index 0");
        }
        None
    } else {
        let Some(s) = cp.class_name(super_index) else {
            bail!("Invalid superclass index {super_index}");
        };
        if s.starts_with('[') {
            bail!("Bad superclass name");
        }
        if is_object {
            bail!("Invalid superclass index {super_index}: {name} cannot have a superclass");
        }
        if is_interface && s != "java/lang/Object" {
            bail!("Interfaces must have java.lang.Object as superclass");
        }
        Some(s.to_owned())
    };

    // interfaces
    let interface_count = usize::from(r.u16()?);
    let mut interface_names: Vec<&str> = Vec::with_capacity(r.capacity(interface_count, 2));
    for _ in 0..interface_count {
        let index = r.u16()?;
        let Some(n) = cp.class_name(index) else {
            bail!("Interface name has bad constant pool index {index}");
        };
        interface_names.push(n);
    }
    if interface_names.len() > 1 {
        let mut sorted = interface_names.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            bail!("Duplicate interface name \"{}\"", w[0]);
        }
    }
    let interfaces: Vec<String> = interface_names.iter().map(|s| (*s).to_owned()).collect();

    let fields = parse_fields(&mut r, &ctx)?;
    let methods = parse_methods(&mut r, &ctx)?;

    let mut class = ClassFile {
        minor_version,
        major_version,
        constant_pool: ConstantPool {
            entries: Vec::new(),
        },
        access_flags: flags,
        name: name.to_owned(),
        super_name,
        interfaces,
        fields,
        methods,
        source_file: None,
        signature: None,
        bootstrap_methods: Vec::new(),
        inner_classes: Vec::new(),
        enclosing_method: None,
        nest_host: None,
        nest_members: Vec::new(),
        permitted_subclasses: Vec::new(),
        record: None,
        runtime_visible_annotations: None,
        runtime_visible_type_annotations: None,
        file_len: bytes.len(),
    };
    let seen = parse_class_attributes(&mut r, &ctx, &mut class)?;
    r.finish()?;

    if let Some(max) = summary.max_bootstrap_index {
        if !seen.bootstrap_methods {
            bail!("Missing BootstrapMethods attribute");
        }
        if usize::from(max) >= class.bootstrap_methods.len() {
            bail!("Short length on BootstrapMethods");
        }
    }
    class.constant_pool = cp;
    Ok(class)
}

fn parse_fields(r: &mut Reader<'_>, ctx: &Ctx<'_>) -> Result<Vec<FieldInfo>> {
    let count = usize::from(r.u16()?);
    let mut fields = Vec::with_capacity(r.capacity(count, 8));
    for _ in 0..count {
        let flags = r.u16()? & RECOGNIZED_FIELD_FLAGS;
        let name_index = r.u16()?;
        let descriptor_index = r.u16()?;
        let name = ctx.utf8(name_index, "field name")?;
        let descriptor = ctx.utf8(descriptor_index, "field descriptor")?;
        if !is_unqualified_name(name) {
            bail!("Illegal field name \"{name}\"");
        }
        if !is_valid_field_descriptor(descriptor) {
            bail!("Field \"{name}\" has illegal signature \"{descriptor}\"");
        }
        crate::check::check_field_flags(flags, ctx.is_interface, ctx.major)?;
        let is_static = flags & ACC_STATIC != 0;

        let mut field = FieldInfo {
            access_flags: flags,
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
            constant_value: None,
            signature: None,
            runtime_visible_annotations: None,
            runtime_visible_type_annotations: None,
        };
        let attribute_count = r.u16()?;
        for _ in 0..attribute_count {
            let (attr, data) = ctx.attribute(r)?;
            match attr {
                "ConstantValue" if is_static => {
                    let index = single_u16(data, "ConstantValue")?;
                    check_constant_value(ctx.cp, descriptor, index)?;
                    set_once(&mut field.constant_value, index, "ConstantValue")?;
                }
                "Signature" if ctx.major >= 49 => {
                    let s = ctx.signature(data)?;
                    set_once(&mut field.signature, s, "Signature")?;
                }
                "RuntimeVisibleAnnotations" if ctx.major >= 49 => {
                    set_once(&mut field.runtime_visible_annotations, data.to_vec(), attr)?;
                }
                "RuntimeVisibleTypeAnnotations" if ctx.major >= 52 => {
                    set_once(
                        &mut field.runtime_visible_type_annotations,
                        data.to_vec(),
                        attr,
                    )?;
                }
                "Synthetic" | "Deprecated" => empty_attribute(attr, data)?,
                _ => {}
            }
        }
        fields.push(field);
    }
    if fields.len() > 1 {
        let mut keys: Vec<(&str, &str)> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.descriptor.as_str()))
            .collect();
        keys.sort_unstable();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            bail!(
                "Duplicate field name \"{}\" with signature \"{}\"",
                w[0].0,
                w[0].1
            );
        }
    }
    Ok(fields)
}

fn check_constant_value(cp: &ConstantPool, descriptor: &str, index: u16) -> Result<()> {
    let Some(value) = cp.get(index) else {
        bail!("Bad initial value index {index} in ConstantValue attribute");
    };
    let ok = match (descriptor.as_bytes().first(), value) {
        (Some(b'J'), Constant::Long(_))
        | (Some(b'F'), Constant::Float(_))
        | (Some(b'D'), Constant::Double(_))
        | (Some(b'B' | b'C' | b'I' | b'S' | b'Z'), Constant::Integer(_)) => true,
        (_, Constant::String { .. }) => descriptor == "Ljava/lang/String;",
        _ => false,
    };
    if !ok {
        bail!("Inconsistent constant value type");
    }
    Ok(())
}

fn parse_methods(r: &mut Reader<'_>, ctx: &Ctx<'_>) -> Result<Vec<MethodInfo>> {
    let count = usize::from(r.u16()?);
    let mut methods = Vec::with_capacity(r.capacity(count, 8));
    for _ in 0..count {
        let raw_flags = r.u16()? & RECOGNIZED_METHOD_FLAGS;
        let name_index = r.u16()?;
        let descriptor_index = r.u16()?;
        let name = ctx.utf8(name_index, "method name")?;
        let descriptor = ctx.utf8(descriptor_index, "method descriptor")?;
        if !descriptor.starts_with('(') {
            bail!("Method \"{name}\" has illegal signature \"{descriptor}\"");
        }
        check_name_and_descriptor(name, descriptor)?;
        let Some(shape) = method_shape(descriptor) else {
            bail!("Method \"{name}\" has illegal signature \"{descriptor}\"");
        };
        let mut flags = raw_flags;
        if name == "<clinit>" {
            if ctx.major < 51 {
                flags = ACC_STATIC;
            } else if flags & ACC_STATIC != 0 {
                flags &= ACC_STATIC | ACC_STRICT;
            } else {
                bail!("Method <clinit> is not static");
            }
        } else {
            if name == "<init>" && ctx.is_interface {
                bail!("Interface cannot have a method named <init>");
            }
            crate::check::check_method_flags(name, flags, ctx.is_interface, ctx.major)?;
        }
        let is_static = flags & ACC_STATIC != 0;
        let args_size = shape.param_slots + usize::from(!is_static);
        if args_size > 255 {
            bail!("Too many arguments in method signature");
        }

        let mut method = MethodInfo::new(flags, name, descriptor);
        let mut seen_exceptions = false;
        let mut seen_method_parameters = false;
        let attribute_count = r.u16()?;
        for _ in 0..attribute_count {
            let (attr, data) = ctx.attribute(r)?;
            match attr {
                "Code" => {
                    if method.code.is_some() {
                        bail!("Multiple Code attributes");
                    }
                    method.code = Some(parse_code(data, ctx)?);
                }
                "Exceptions" => {
                    if seen_exceptions {
                        bail!("Multiple Exceptions attributes");
                    }
                    seen_exceptions = true;
                    let mut a = Reader::attribute(data, "Exceptions");
                    let n = usize::from(a.u16()?);
                    method.exceptions.reserve(a.capacity(n, 2));
                    for _ in 0..n {
                        let index = a.u16()?;
                        method.exceptions.push(ctx.class(index, "Exception name")?);
                    }
                    a.finish()?;
                }
                "Signature" if ctx.major >= 49 => {
                    let s = ctx.signature(data)?;
                    set_once(&mut method.signature, s, "Signature")?;
                }
                "RuntimeVisibleAnnotations" if ctx.major >= 49 => {
                    set_once(&mut method.runtime_visible_annotations, data.to_vec(), attr)?;
                }
                "RuntimeVisibleParameterAnnotations" if ctx.major >= 49 => {
                    set_once(
                        &mut method.runtime_visible_parameter_annotations,
                        data.to_vec(),
                        attr,
                    )?;
                }
                "AnnotationDefault" if ctx.major >= 49 => {
                    set_once(&mut method.annotation_default, data.to_vec(), attr)?;
                }
                "RuntimeVisibleTypeAnnotations" if ctx.major >= 52 => {
                    set_once(
                        &mut method.runtime_visible_type_annotations,
                        data.to_vec(),
                        attr,
                    )?;
                }
                "MethodParameters" => {
                    if seen_method_parameters {
                        bail!("Multiple MethodParameters attributes");
                    }
                    seen_method_parameters = true;
                    let mut a = Reader::attribute(data, "MethodParameters");
                    let n = usize::from(a.u8()?);
                    method.method_parameters.reserve(a.capacity(n, 4));
                    for _ in 0..n {
                        method.method_parameters.push((a.u16()?, a.u16()?));
                    }
                    a.finish()?;
                }
                "Synthetic" | "Deprecated" => empty_attribute(attr, data)?,
                _ => {}
            }
        }
        let is_bodyless = flags & (ACC_ABSTRACT | ACC_NATIVE) != 0;
        match &method.code {
            Some(_) if is_bodyless => bail!("Code attribute in native or abstract methods"),
            None if !is_bodyless => {
                bail!("Absent Code attribute in method that is not native or abstract")
            }
            Some(code) if usize::from(code.max_locals) < args_size => {
                bail!("Arguments can't fit into locals");
            }
            _ => {}
        }
        methods.push(method);
    }
    if methods.len() > 1 {
        let mut keys: Vec<(&str, &str)> = methods
            .iter()
            .map(|m| (m.name.as_str(), m.descriptor.as_str()))
            .collect();
        keys.sort_unstable();
        if let Some(w) = keys.windows(2).find(|w| w[0] == w[1]) {
            bail!(
                "Duplicate method name \"{}\" with signature \"{}\"",
                w[0].0,
                w[0].1
            );
        }
    }
    Ok(methods)
}

fn parse_code(data: &[u8], ctx: &Ctx<'_>) -> Result<Code> {
    let mut r = Reader::attribute(data, "Code");
    let max_stack = r.u16()?;
    let max_locals = r.u16()?;
    let code_length = r.u32()?;
    if code_length == 0 || code_length >= 65536 {
        bail!("Invalid method Code length {code_length}");
    }
    let code_len = code_length as usize; // < 65536
    let code = r.bytes(code_len)?.to_vec();

    let handler_count = usize::from(r.u16()?);
    let mut exception_table = Vec::with_capacity(r.capacity(handler_count, 8));
    for _ in 0..handler_count {
        let h = ExceptionHandler {
            start_pc: r.u16()?,
            end_pc: r.u16()?,
            handler_pc: r.u16()?,
            catch_type: r.u16()?,
        };
        if h.start_pc >= h.end_pc || usize::from(h.end_pc) > code_len {
            bail!("Illegal exception table range");
        }
        if usize::from(h.handler_pc) >= code_len {
            bail!("Illegal exception table handler");
        }
        if h.catch_type != 0 && !ctx.is_class(h.catch_type) {
            bail!(
                "Catch type in exception table has bad constant pool index {}",
                h.catch_type
            );
        }
        exception_table.push(h);
    }

    let mut line_numbers: Vec<(u16, u16)> = Vec::new();
    let mut local_variables: Vec<LocalVariable> = Vec::new();
    let mut stack_map_table = None;
    let mut stack_map_error = None;
    let attribute_count = r.u16()?;
    for _ in 0..attribute_count {
        let (attr, data) = ctx.attribute(&mut r)?;
        match attr {
            "LineNumberTable" => {
                let mut a = Reader::attribute(data, "LineNumberTable");
                let n = usize::from(a.u16()?);
                line_numbers.reserve(a.capacity(n, 4));
                for _ in 0..n {
                    let start_pc = a.u16()?;
                    let line = a.u16()?;
                    if usize::from(start_pc) >= code_len {
                        bail!("Invalid pc in LineNumberTable");
                    }
                    line_numbers.push((start_pc, line));
                }
                a.finish()?;
            }
            "LocalVariableTable" => local_variables.extend(check_local_variables(
                data,
                ctx,
                code_len,
                "LocalVariableTable",
            )?),
            "LocalVariableTypeTable" if ctx.major >= 49 => {
                check_local_variables(data, ctx, code_len, "LocalVariableTypeTable")?;
            }
            "StackMapTable" if ctx.major >= 50 => {
                if stack_map_table.is_some() {
                    bail!("Multiple StackMapTable attributes in method");
                }
                let (frames, error) = parse_stack_map_frames(data);
                stack_map_table = Some(frames);
                stack_map_error = error;
            }
            _ => {}
        }
    }
    r.finish()?;
    if !line_numbers.is_sorted_by_key(|e| e.0) {
        line_numbers.sort_by_key(|e| e.0);
    }
    Ok(Code {
        max_stack,
        max_locals,
        code,
        exception_table,
        line_numbers,
        stack_map_table,
        stack_map_error,
        local_variables,
    })
}

fn check_local_variables(
    data: &[u8],
    ctx: &Ctx<'_>,
    code_len: usize,
    what: &'static str,
) -> Result<Vec<LocalVariable>> {
    let mut a = Reader::attribute(data, what);
    let n = a.u16()?;
    let mut out = Vec::with_capacity(a.capacity(usize::from(n), 10));
    for _ in 0..n {
        let start_pc = usize::from(a.u16()?);
        let length = usize::from(a.u16()?);
        let name_index = a.u16()?;
        let descriptor_index = a.u16()?;
        let index = a.u16()?;
        if start_pc >= code_len {
            bail!("Invalid start_pc {start_pc} in {what}");
        }
        if start_pc + length > code_len {
            bail!("Invalid length {length} in {what}");
        }
        let name = ctx.utf8(name_index, what)?;
        let descriptor = ctx.utf8(descriptor_index, what)?;
        if !is_unqualified_name(name) {
            bail!("Illegal local variable name \"{name}\" in {what}");
        }
        if what == "LocalVariableTable" && !is_valid_field_descriptor(descriptor) {
            bail!("Local variable \"{name}\" has illegal signature \"{descriptor}\"");
        }
        out.push(LocalVariable {
            start_pc: start_pc as u16,
            length: length as u16,
            name_index,
            descriptor_index,
            index,
        });
    }
    a.finish()?;
    Ok(out)
}

fn parse_vtype(r: &mut Reader<'_>) -> Result<VType> {
    let tag = r.u8()?;
    let arg = if VType::tag_has_arg(tag) { r.u16()? } else { 0 };
    match VType::from_tag(tag, arg) {
        Some(t) => Ok(t),
        None => bail!("Illegal verification type tag {tag} in StackMapTable"),
    }
}

fn parse_vtypes(r: &mut Reader<'_>, n: usize) -> Result<Vec<VType>> {
    let mut v = Vec::with_capacity(r.capacity(n, 1));
    for _ in 0..n {
        v.push(parse_vtype(r)?);
    }
    Ok(v)
}

/// Parses a StackMapTable attribute's contents (JVMS §4.7.4).
pub fn parse_stack_map_table(
    data: &[u8],
) -> std::result::Result<Vec<StackMapFrame>, ClassFormatError> {
    let mut frames = Vec::new();
    read_stack_map_frames(data, &mut frames)?;
    Ok(frames)
}

/// Parses a StackMapTable attribute's contents as far as they are well formed: the frames
/// read, and the format error after them if any.
pub fn parse_stack_map_frames(data: &[u8]) -> (Vec<StackMapFrame>, Option<ClassFormatError>) {
    let mut frames = Vec::new();
    let error = read_stack_map_frames(data, &mut frames).err();
    (frames, error)
}

fn read_stack_map_frames(data: &[u8], frames: &mut Vec<StackMapFrame>) -> Result<()> {
    let mut r = Reader::attribute(data, "StackMapTable");
    let n = usize::from(r.u16()?);
    frames.reserve(r.capacity(n, 1));
    for _ in 0..n {
        let frame_type = r.u8()?;
        let frame = match frame_type {
            0..=63 => StackMapFrame::Same {
                offset_delta: u16::from(frame_type),
            },
            64..=127 => StackMapFrame::SameLocals1StackItem {
                offset_delta: u16::from(frame_type - 64),
                stack: parse_vtype(&mut r)?,
            },
            128..=246 => bail!("Reserved frame type {frame_type} in StackMapTable"),
            247 => {
                let offset_delta = r.u16()?;
                StackMapFrame::SameLocals1StackItem {
                    offset_delta,
                    stack: parse_vtype(&mut r)?,
                }
            }
            248..=250 => StackMapFrame::Chop {
                offset_delta: r.u16()?,
                k: 251 - frame_type,
            },
            251 => StackMapFrame::Same {
                offset_delta: r.u16()?,
            },
            252..=254 => {
                let offset_delta = r.u16()?;
                let locals = parse_vtypes(&mut r, usize::from(frame_type - 251))?;
                StackMapFrame::Append {
                    offset_delta,
                    locals,
                }
            }
            255 => {
                let offset_delta = r.u16()?;
                let n_locals = usize::from(r.u16()?);
                let locals = parse_vtypes(&mut r, n_locals)?;
                let n_stack = usize::from(r.u16()?);
                let stack = parse_vtypes(&mut r, n_stack)?;
                StackMapFrame::Full {
                    offset_delta,
                    locals,
                    stack,
                }
            }
        };
        frames.push(frame);
    }
    r.finish()
}

/// Which once-only class attributes were present (for the ones without an `Option` slot).
#[derive(Default)]
struct SeenClassAttributes {
    bootstrap_methods: bool,
    inner_classes: bool,
    nest_members: bool,
    permitted_subclasses: bool,
}

fn parse_class_attributes(
    r: &mut Reader<'_>,
    ctx: &Ctx<'_>,
    class: &mut ClassFile,
) -> Result<SeenClassAttributes> {
    let mut seen = SeenClassAttributes::default();
    let major = ctx.major;
    let attribute_count = r.u16()?;
    for _ in 0..attribute_count {
        let (attr, data) = ctx.attribute(r)?;
        match attr {
            "SourceFile" => {
                let index = single_u16(data, "SourceFile")?;
                let s = ctx.utf8(index, "SourceFile attribute")?.to_owned();
                set_once(&mut class.source_file, s, attr)?;
            }
            "Signature" if major >= 49 => {
                let s = ctx.signature(data)?;
                set_once(&mut class.signature, s, attr)?;
            }
            "RuntimeVisibleAnnotations" if major >= 49 => {
                set_once(&mut class.runtime_visible_annotations, data.to_vec(), attr)?;
            }
            "RuntimeVisibleTypeAnnotations" if major >= 52 => {
                set_once(
                    &mut class.runtime_visible_type_annotations,
                    data.to_vec(),
                    attr,
                )?;
            }
            "BootstrapMethods" if major >= 51 => {
                once(&mut seen.bootstrap_methods, attr)?;
                class.bootstrap_methods = parse_bootstrap_methods(data, ctx)?;
            }
            "InnerClasses" => {
                once(&mut seen.inner_classes, attr)?;
                class.inner_classes = parse_inner_classes(data, ctx)?;
            }
            "EnclosingMethod" if major >= 49 => {
                let mut a = Reader::attribute(data, "EnclosingMethod");
                let class_index = a.u16()?;
                let method_index = a.u16()?;
                a.finish()?;
                if !ctx.is_class(class_index) {
                    bail!(
                        "Invalid or out-of-bounds class index {class_index} in EnclosingMethod attribute"
                    );
                }
                if method_index != 0 && ctx.cp.name_and_type(method_index).is_none() {
                    bail!(
                        "Invalid or out-of-bounds method index {method_index} in EnclosingMethod attribute"
                    );
                }
                set_once(
                    &mut class.enclosing_method,
                    (class_index, method_index),
                    attr,
                )?;
            }
            "NestHost" if major >= 55 => {
                let index = single_u16(data, "NestHost")?;
                ctx.class(index, "Nest-host class_info_index")?;
                set_once(&mut class.nest_host, index, attr)?;
            }
            "NestMembers" if major >= 55 => {
                once(&mut seen.nest_members, attr)?;
                class.nest_members = parse_class_list(data, ctx, "NestMembers")?;
            }
            "PermittedSubclasses" if major >= 61 => {
                once(&mut seen.permitted_subclasses, attr)?;
                if class.access_flags & ACC_FINAL != 0 {
                    bail!("PermittedSubclasses attribute in final class");
                }
                class.permitted_subclasses = parse_class_list(data, ctx, "PermittedSubclasses")?;
            }
            "Record" if major >= 60 => {
                let components = parse_record(data, ctx)?;
                set_once(&mut class.record, components, attr)?;
            }
            "Synthetic" | "Deprecated" => empty_attribute(attr, data)?,
            _ => {}
        }
    }
    if class.nest_host.is_some() && seen.nest_members {
        bail!("Conflicting NestHost and NestMembers attributes");
    }
    Ok(seen)
}

fn once(seen: &mut bool, what: &str) -> Result<()> {
    if *seen {
        bail!("Multiple {what} attributes");
    }
    *seen = true;
    Ok(())
}

fn parse_class_list(data: &[u8], ctx: &Ctx<'_>, what: &'static str) -> Result<Vec<u16>> {
    let mut a = Reader::attribute(data, what);
    let n = usize::from(a.u16()?);
    let mut out = Vec::with_capacity(a.capacity(n, 2));
    for _ in 0..n {
        let index = a.u16()?;
        out.push(ctx.class(index, what)?);
    }
    a.finish()?;
    Ok(out)
}

fn parse_bootstrap_methods(data: &[u8], ctx: &Ctx<'_>) -> Result<Vec<BootstrapMethod>> {
    let mut a = Reader::attribute(data, "BootstrapMethods");
    let n = usize::from(a.u16()?);
    let mut out = Vec::with_capacity(a.capacity(n, 4));
    for _ in 0..n {
        let method_ref = a.u16()?;
        if !matches!(ctx.cp.get(method_ref), Some(Constant::MethodHandle { .. })) {
            bail!("bootstrap_method_index {method_ref} has bad constant type");
        }
        let argc = usize::from(a.u16()?);
        let mut arguments = Vec::with_capacity(a.capacity(argc, 2));
        for _ in 0..argc {
            let index = a.u16()?;
            if !ctx.cp.get(index).is_some_and(Constant::is_loadable) {
                bail!("argument_index {index} has bad constant type");
            }
            arguments.push(index);
        }
        out.push(BootstrapMethod {
            method_ref,
            arguments,
        });
    }
    a.finish()?;
    Ok(out)
}

fn parse_inner_classes(data: &[u8], ctx: &Ctx<'_>) -> Result<Vec<InnerClass>> {
    let mut a = Reader::attribute(data, "InnerClasses");
    let n = usize::from(a.u16()?);
    let mut out = Vec::with_capacity(a.capacity(n, 8));
    for _ in 0..n {
        let inner_class_info = a.u16()?;
        let outer_class_info = a.u16()?;
        let inner_name = a.u16()?;
        let raw_flags = a.u16()?;
        if !ctx.is_class(inner_class_info) {
            bail!("inner_class_info_index {inner_class_info} has bad constant type");
        }
        if outer_class_info != 0 {
            match ctx.cp.class_name(outer_class_info) {
                None => bail!("outer_class_info_index {outer_class_info} has bad constant type"),
                Some(n) if n.starts_with('[') => bail!("Outer class is an array class"),
                Some(_) => {}
            }
        }
        if inner_name != 0 && ctx.cp.utf8(inner_name).is_none() {
            bail!("inner_name_index {inner_name} has bad constant type");
        }
        if inner_class_info == outer_class_info {
            bail!("Class is both outer and inner class");
        }
        // As for the class's own flags (HotSpot checks both alike).
        if ctx.major >= 53 && raw_flags & ACC_MODULE != 0 {
            return Err(ClassFormatError::not_a_class(ctx.name));
        }
        let mut flags = raw_flags & RECOGNIZED_INNER_CLASS_FLAGS;
        if flags & ACC_INTERFACE != 0 && ctx.major < 50 {
            flags |= ACC_ABSTRACT;
        }
        crate::check::check_class_flags(flags, ctx.major)?;
        out.push(InnerClass {
            inner_class_info,
            outer_class_info,
            inner_name,
            inner_flags: flags,
        });
    }
    a.finish()?;
    if ctx.major >= 49 && out.len() > 1 {
        let mut keys: Vec<(u16, u16, u16, u16)> = out
            .iter()
            .map(|c| {
                (
                    c.inner_class_info,
                    c.outer_class_info,
                    c.inner_name,
                    c.inner_flags,
                )
            })
            .collect();
        keys.sort_unstable();
        if keys.windows(2).any(|w| w[0] == w[1]) {
            bail!("Duplicate entry in InnerClasses");
        }
    }
    Ok(out)
}

fn parse_record(data: &[u8], ctx: &Ctx<'_>) -> Result<Vec<RecordComponent>> {
    let mut a = Reader::attribute(data, "Record");
    let n = usize::from(a.u16()?);
    let mut out = Vec::with_capacity(a.capacity(n, 6));
    for _ in 0..n {
        let name = ctx.utf8(a.u16()?, "Record component name")?;
        let descriptor = ctx.utf8(a.u16()?, "Record component descriptor")?;
        if !is_unqualified_name(name) {
            bail!("Illegal field name \"{name}\" in Record attribute");
        }
        if !is_valid_field_descriptor(descriptor) {
            bail!("Field \"{name}\" has illegal signature \"{descriptor}\" in Record attribute");
        }
        let mut component = RecordComponent {
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
            signature: None,
            runtime_visible_annotations: None,
            runtime_visible_type_annotations: None,
        };
        let attribute_count = a.u16()?;
        for _ in 0..attribute_count {
            let (attr, data) = ctx.attribute(&mut a)?;
            match attr {
                "Signature" => {
                    let s = ctx.signature(data)?;
                    set_once(&mut component.signature, s, "Signature")?;
                }
                "RuntimeVisibleAnnotations" => {
                    set_once(
                        &mut component.runtime_visible_annotations,
                        data.to_vec(),
                        attr,
                    )?;
                }
                "RuntimeVisibleTypeAnnotations" => {
                    set_once(
                        &mut component.runtime_visible_type_annotations,
                        data.to_vec(),
                        attr,
                    )?;
                }
                _ => {}
            }
        }
        out.push(component);
    }
    a.finish()?;
    Ok(out)
}
