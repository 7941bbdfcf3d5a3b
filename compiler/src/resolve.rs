//! Resolution: the loaded files' items → one [`InstanceSpec`] per instance, as written.
//!
//! Each block of entries (a `defaults`, an instance, a family's own entries, one axis value, one
//! row) is typed once into a *layer*: a scratch spec plus the keys it sets. An instance is built by
//! copying its layers' keys in precedence order: bases in order, own entries, axis values, row values.
//! No semantic defaults are applied here; validation does that.

use crate::keys::{self, Key, Target};
use crate::load::Session;
use crate::model::FamilyInfo;
use crate::spec::{InstanceSpec, Origin, Sp};
use ck_dsl::ast::{self, Entry, Item, Value, ValueKind};
use ck_dsl::{Diagnostic, Diagnostics, FileId, Span};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Diagnostic codes of resolution (see `docs/diagnostics.md`).
pub mod codes {
    pub const DUPLICATE_KEY: &str = "CK0113";
    pub const DUPLICATE_NAME: &str = "CK0114";
    pub const UNKNOWN_BASE: &str = "CK0115";
    pub const BASE_NOT_DEFAULTS: &str = "CK0116";
    pub const BASE_CYCLE: &str = "CK0117";
    pub const ROW_ARITY: &str = "CK0118";
    pub const EMPTY_AXIS: &str = "CK0119";
    pub const AXIS_IS_COLUMN: &str = "CK0120";
    pub const NAME_OUTSIDE_FAMILY: &str = "CK0121";
    pub const BAD_NAME_PATTERN: &str = "CK0122";
    pub const BAD_INSTANCE_NAME: &str = "CK0123";
    pub const TOO_MANY_INSTANCES: &str = "CK0124";
}

impl Session {
    /// Expands every instance and family of the loaded files, in load order, and reports every
    /// resolution error.
    pub fn resolve(&self) -> (Vec<InstanceSpec>, Diagnostics) {
        let mut r = Resolver::new(self);
        let duplicates = r.collect_items();
        for (i, (file, item)) in r.items.clone().into_iter().enumerate() {
            if duplicates.get(i).copied().unwrap_or(false) {
                // Reported already; expanding it would only repeat the report.
                continue;
            }
            match item {
                Item::Instance(block) => r.instance(file, block),
                Item::Family(family) => r.family(file, family),
                Item::Defaults(block) => {
                    r.chain(block);
                }
                Item::Import(_) => {}
            }
        }
        // Names become file and symbol names of the emitted code; a family's names its
        // instances' group.
        let long_families: Vec<(&str, Span)> = r
            .items
            .iter()
            .filter_map(|(_, item)| match item {
                Item::Family(f) => Some((f.name.name.as_str(), f.name.span)),
                _ => None,
            })
            .filter(|(name, _)| name.len() > MAX_NAME_LEN)
            .collect();
        // An instance named after a long family is reported with its family.
        let instances = r
            .out
            .iter()
            .map(|s| (s.name.value.as_str(), s.name.span))
            .filter(|(name, _)| !long_families.iter().any(|(f, _)| name.starts_with(f)));
        let long: Vec<(String, Span)> = long_families
            .iter()
            .copied()
            .chain(instances)
            .filter(|(name, _)| name.len() > MAX_NAME_LEN)
            .map(|(name, span)| (name.to_string(), span))
            .collect();
        for (name, span) in long {
            r.diags.push(
                Diagnostic::error(
                    codes::BAD_INSTANCE_NAME,
                    format!(
                        "the name `{}…` is {} characters long, more than {MAX_NAME_LEN}",
                        name.chars().take(24).collect::<String>(),
                        name.len()
                    ),
                )
                .at(span, "this name")
                .help("emitted files and symbols are named after instances and families: use a shorter name"),
            );
        }
        (r.out, r.diags)
    }
}

/// The longest instance or family name: emitted CK file names add about 100 characters to it,
/// and a file name may have 255.
pub const MAX_NAME_LEN: usize = 128;

/// The keys one block sets, typed into a scratch spec.
struct Layer {
    spec: InstanceSpec,
    keys: Vec<&'static Key>,
}

impl Layer {
    fn apply(&self, to: &mut InstanceSpec) {
        for key in &self.keys {
            if let Target::Spec { copy, .. } = key.target {
                copy(to, &self.spec);
            }
        }
    }
}

/// A typed block: its layer, the `name` pattern if it set one, and whether it had errors.
struct Typed {
    layer: Layer,
    name: Option<(String, Span)>,
    ok: bool,
}

/// The resolution state of a `defaults` item's base chain.
enum Chain {
    Visiting,
    /// The layers to apply, in order; `None` when a base could not be resolved.
    Done(Option<Rc<Vec<Rc<Layer>>>>),
}

struct Resolver<'s> {
    session: &'s Session,
    items: Vec<(FileId, &'s Item)>,
    /// Item name → the item (defaults, instance or family), for bases and duplicate names.
    by_name: HashMap<&'s str, &'s Item>,
    chains: HashMap<&'s str, Chain>,
    /// Instance name → span of its name, for duplicate names.
    instance_names: HashMap<String, Span>,
    out: Vec<InstanceSpec>,
    diags: Diagnostics,
}

fn item_name(item: &Item) -> Option<&ast::Ident> {
    match item {
        Item::Defaults(b) | Item::Instance(b) => Some(&b.name),
        Item::Family(f) => Some(&f.name),
        Item::Import(_) => None,
    }
}

fn item_kind(item: &Item) -> &'static str {
    match item {
        Item::Defaults(_) => "a `defaults`",
        Item::Instance(_) => "an instance",
        Item::Family(_) => "a family",
        Item::Import(_) => "an import",
    }
}

fn empty_spec() -> InstanceSpec {
    InstanceSpec::new(Sp::new(String::new(), Span::default()), Origin::default())
}

/// Flattens sections into `(dotted key, key span, value)` triples in source order.
fn flatten<'a>(entries: &'a [Entry], prefix: &str, out: &mut Vec<(String, Span, &'a Value)>) {
    for entry in entries {
        match entry {
            Entry::Assign { key, value, .. } => {
                out.push((format!("{prefix}{}", key.dotted()), key.span, value))
            }
            Entry::Section { name, entries, .. } => {
                flatten(entries, &format!("{prefix}{}.", name.dotted()), out)
            }
        }
    }
}

fn duplicate_key(dotted: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(codes::DUPLICATE_KEY, format!("`{dotted}` is set twice"))
        .at(span, "set again here")
        .with(first, "first set here")
        .help("remove one of the settings; to override a base, set the key once in the item")
}

/// Most instances one library may expand to: CK's whole grouped-convolution library is a few
/// thousand, and each instance costs a few kilobytes of IR, so this bounds memory well under a
/// gigabyte while leaving room to grow.
pub const MAX_INSTANCES: u64 = 100_000;

impl<'s> Resolver<'s> {
    fn new(session: &'s Session) -> Self {
        let items = session
            .files()
            .iter()
            .flat_map(|f| f.items.iter().map(move |i| (f.file, i)))
            .collect();
        Resolver {
            session,
            items,
            by_name: HashMap::new(),
            chains: HashMap::new(),
            instance_names: HashMap::new(),
            out: Vec::new(),
            diags: Diagnostics::new(),
        }
    }

    /// Indexes item names, reporting duplicates; returns which items are later duplicates.
    fn collect_items(&mut self) -> Vec<bool> {
        let mut duplicates = vec![false; self.items.len()];
        for (i, &(_, item)) in self.items.iter().enumerate() {
            let Some(name) = item_name(item) else {
                continue;
            };
            match self.by_name.get(name.name.as_str()) {
                Some(first) => {
                    let first_span = item_name(first).map_or(name.span, |n| n.span);
                    self.diags.push(
                        Diagnostic::error(codes::DUPLICATE_NAME, format!("the name `{}` is defined twice", name.name))
                            .at(name.span, "defined again here")
                            .with(first_span, format!("first defined here, as {}", item_kind(first)))
                            .help("names of `defaults`, instances and families are global across all loaded files"),
                    );
                    duplicates[i] = true;
                }
                None => {
                    self.by_name.insert(&name.name, item);
                }
            }
        }
        duplicates
    }

    /// Types a block of entries into a layer. `family` allows (and collects) `name`.
    fn typed(&mut self, entries: &[Entry], family: bool) -> Typed {
        let mut flat = Vec::new();
        flatten(entries, "", &mut flat);
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        let mut typed = Typed {
            layer: Layer {
                spec: empty_spec(),
                keys: Vec::new(),
            },
            name: None,
            ok: true,
        };
        for (dotted, span, value) in &flat {
            if let Some(&first) = seen.get(dotted.as_str()) {
                self.diags.push(duplicate_key(dotted, *span, first));
                typed.ok = false;
                continue;
            }
            seen.insert(dotted, *span);
            let result = match keys::lookup(dotted) {
                None => Err(keys::unknown_key(dotted, *span)),
                Some(key) => match key.target {
                    Target::FamilyName if family => match &value.kind {
                        ValueKind::Str(pattern) => {
                            typed.name = Some((pattern.clone(), value.span));
                            Ok(())
                        }
                        other => Err(Diagnostic::error(
                            keys::codes::WRONG_SHAPE,
                            format!("expected a string, found {}", other.describe()),
                        )
                        .at(
                            value.span,
                            "expected a name pattern such as \"{family}_{row}\"",
                        )),
                    },
                    Target::FamilyName => Err(name_outside_family(*span)),
                    Target::Spec { set, .. } => {
                        set(&mut typed.layer.spec, value).map(|()| typed.layer.keys.push(key))
                    }
                },
            };
            if let Err(d) = result {
                self.diags.push(d);
                typed.ok = false;
            }
        }
        typed
    }

    /// The layers of `block`'s bases followed by its own; `None` if a base is unresolvable.
    fn bases(&mut self, bases: &'s [ast::Ident]) -> Option<Vec<Rc<Layer>>> {
        let mut layers = Vec::new();
        let mut ok = true;
        for base in bases {
            match self.by_name.get(base.name.as_str()).copied() {
                None => {
                    let near = keys::closest(&base.name, self.defaults_names().into_iter());
                    let mut d = Diagnostic::error(
                        codes::UNKNOWN_BASE,
                        format!("unknown base `{}`", base.name),
                    )
                    .at(base.span, "no `defaults` has this name");
                    if let Some(best) = near.first() {
                        d = d.help(format!("did you mean `{best}`?"));
                    }
                    self.diags.push(d);
                    ok = false;
                }
                Some(Item::Defaults(b)) => match self.chain(b) {
                    Some(chain) => layers.extend(chain.iter().cloned()),
                    None => ok = false,
                },
                Some(other) => {
                    let mut d = Diagnostic::error(
                        codes::BASE_NOT_DEFAULTS,
                        format!("`{}` is {}, not a `defaults`", base.name, item_kind(other)),
                    )
                    .at(base.span, "only `defaults` items can be bases");
                    if let Some(n) = item_name(other) {
                        d = d.with(n.span, "defined here");
                    }
                    self.diags.push(d.help(
                        "move the shared settings into a `defaults` item and use it as the base",
                    ));
                    ok = false;
                }
            }
        }
        ok.then_some(layers)
    }

    fn defaults_names(&self) -> Vec<&'s str> {
        let mut names: Vec<&str> = self
            .items
            .iter()
            .filter_map(|(_, i)| {
                matches!(i, Item::Defaults(_))
                    .then(|| item_name(i))
                    .flatten()
            })
            .map(|n| n.name.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// The layers a `defaults` item contributes (its bases', then its own), computed once.
    fn chain(&mut self, block: &'s ast::Block) -> Option<Rc<Vec<Rc<Layer>>>> {
        match self.chains.get(block.name.name.as_str()) {
            Some(Chain::Done(done)) => return done.clone(),
            Some(Chain::Visiting) => {
                self.diags.push(
                    Diagnostic::error(
                        codes::BASE_CYCLE,
                        format!("`{}` inherits from itself", block.name.name),
                    )
                    .at(
                        block.name.span,
                        "this `defaults` is part of a cycle of bases",
                    )
                    .note(format!("the cycle: {}", self.cycle_from(block)))
                    .help("remove one of the bases in the cycle"),
                );
                self.chains.insert(&block.name.name, Chain::Done(None));
                return None;
            }
            None => {}
        }
        self.chains.insert(&block.name.name, Chain::Visiting);
        let bases = self.bases(&block.bases);
        let own = self.typed(&block.entries, false);
        // A cycle reported deeper in the recursion has already marked this item done.
        let result = match (self.chains.get(block.name.name.as_str()), bases) {
            (Some(Chain::Done(None)), _) | (_, None) => None,
            (_, Some(mut layers)) => {
                layers.push(Rc::new(own.layer));
                Some(Rc::new(layers))
            }
        };
        self.chains
            .insert(&block.name.name, Chain::Done(result.clone()));
        result
    }

    /// The names along the cycle of bases through `start`, for the note.
    fn cycle_from(&self, start: &'s ast::Block) -> String {
        let mut path = vec![start.name.name.as_str()];
        let mut current = start;
        // Follows the first base still being visited; bounded by the number of items.
        for _ in 0..self.items.len() {
            let next = current
                .bases
                .iter()
                .find_map(|b| match self.by_name.get(b.name.as_str()) {
                    Some(Item::Defaults(d))
                        if matches!(
                            self.chains.get(d.name.name.as_str()),
                            Some(Chain::Visiting)
                        ) =>
                    {
                        Some(d)
                    }
                    _ => None,
                });
            match next {
                Some(d) => {
                    path.push(&d.name.name);
                    if d.name.name == start.name.name {
                        break;
                    }
                    current = d;
                }
                None => break,
            }
        }
        path.join(" → ")
    }

    fn instance(&mut self, file: FileId, block: &'s ast::Block) {
        let bases = self.bases(&block.bases);
        let own = self.typed(&block.entries, false);
        // An instance with errors is left out; its diagnostics say why.
        let (true, Some(layers)) = (own.ok, bases) else {
            return;
        };
        let origin = Origin {
            file,
            span: block.span,
            family: None,
        };
        let mut spec = InstanceSpec::new(Sp::new(block.name.name.clone(), block.name.span), origin);
        spec.doc = block.doc.clone();
        layers.iter().for_each(|l| l.apply(&mut spec));
        own.layer.apply(&mut spec);
        self.push_instance(spec);
    }

    /// Records an instance, reporting a duplicate name; returns false on a duplicate.
    fn push_instance(&mut self, spec: InstanceSpec) -> bool {
        if let Some(&first) = self.instance_names.get(&spec.name.value) {
            self.diags.push(
                Diagnostic::error(codes::DUPLICATE_NAME, format!("two instances are named `{}`", spec.name.value))
                    .at(spec.name.span, "this instance")
                    .with(first, "has the same name as this one")
                    .help("instance names are global; give the family a `name` pattern that includes every axis"),
            );
            return false;
        }
        self.instance_names
            .insert(spec.name.value.clone(), spec.name.span);
        self.out.push(spec);
        true
    }

    fn family(&mut self, file: FileId, family: &'s ast::Family) {
        let bases = self.bases(&family.bases);
        let own = self.typed(&family.entries, true);
        let mut ok = own.ok && bases.is_some();
        let axes = self.axes(family, &mut ok);
        let rows = self.rows(family, &mut ok);
        let pattern = match &own.name {
            Some((text, span)) => match NamePattern::parse(text, *span, family) {
                Ok(p) => Some(p),
                Err(d) => {
                    self.diags.push(d);
                    ok = false;
                    None
                }
            },
            None => None,
        };
        let (true, Some(bases)) = (ok, bases) else {
            return;
        };

        let family_origin = FamilyInfo {
            name: family.name.name.clone(),
            doc: family.doc.clone(),
            ..Default::default()
        };
        // One layer list per row (a single empty "row" when the family has no table).
        let rows: Vec<Option<(&ast::Row, Layer)>> = if family.rows.is_some() {
            rows.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        // Counted before expanding: four axes of 60 values are 13 million instances.
        let count = axes
            .iter()
            .try_fold(rows.len() as u64, |n, a| n.checked_mul(a.len() as u64));
        let room = MAX_INSTANCES.saturating_sub(self.out.len() as u64);
        if count.is_none_or(|n| n > room) {
            let count = count.map_or("more than 2^64".to_string(), |n| n.to_string());
            self.diags.push(
                Diagnostic::error(
                    codes::TOO_MANY_INSTANCES,
                    format!(
                        "family `{}` expands to {count} instances; a library holds at most {MAX_INSTANCES}",
                        family.name.name
                    ),
                )
                .at(family.name.span, "this family")
                .note(format!(
                    "{} rows times the axes' sizes ({}); {} instances are already declared",
                    rows.len(),
                    axes.iter().map(|a| a.len().to_string()).collect::<Vec<_>>().join(" × "),
                    self.out.len()
                ))
                .help("split the family, or list fewer values on its axes"),
            );
            return;
        }
        let mut choice = vec![0usize; axes.len()];
        loop {
            for row in &rows {
                let name = match &pattern {
                    Some(p) => p.expand(family, &choice, row.as_ref().map(|(r, _)| *r)),
                    None => default_name(family, &choice, row.as_ref().map(|(r, _)| *r)),
                };
                if !is_identifier(&name) {
                    let span = own.name.as_ref().map_or(family.name.span, |(_, s)| *s);
                    self.diags.push(
                        Diagnostic::error(codes::BAD_INSTANCE_NAME, format!("expanded name `{name}` is not an identifier"))
                            .at(span, "this pattern produces it")
                            .help("instance names use ASCII letters, digits and `_`, and do not start with a digit"),
                    );
                    return;
                }
                let (span, name_span) = match row {
                    Some((r, _)) => (r.span, r.name.span),
                    None => (family.span, family.name.span),
                };
                let mut origin_family = family_origin.clone();
                origin_family.axes = family
                    .axes
                    .iter()
                    .zip(&choice)
                    .map(|(a, &i)| {
                        (
                            a.key.dotted(),
                            self.session.sources().snippet(a.values[i].span).to_string(),
                        )
                    })
                    .collect();
                origin_family.row = row.as_ref().map(|(r, _)| r.name.name.clone());
                let origin = Origin {
                    file,
                    span,
                    family: Some(origin_family),
                };
                let mut spec = InstanceSpec::new(Sp::new(name, name_span), origin);
                spec.doc = match row {
                    Some((r, _)) => r.doc.clone(),
                    None => family.doc.clone(),
                };
                bases.iter().for_each(|l| l.apply(&mut spec));
                own.layer.apply(&mut spec);
                for (axis, &i) in axes.iter().zip(&choice) {
                    axis[i].apply(&mut spec);
                }
                if let Some((_, layer)) = row {
                    layer.apply(&mut spec);
                }
                if !self.push_instance(spec) {
                    // One report per family: the pattern misses an axis, so every other name collides too.
                    return;
                }
            }
            if !advance(&mut choice, &axes) {
                break;
            }
        }
    }

    /// One layer per value of each axis; reports unknown keys, empty and duplicate axes.
    fn axes(&mut self, family: &'s ast::Family, ok: &mut bool) -> Vec<Vec<Layer>> {
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        let mut out = Vec::new();
        for axis in &family.axes {
            let dotted = axis.key.dotted();
            if let Some(&first) = seen.get(&dotted) {
                self.diags
                    .push(duplicate_key(&dotted, axis.key.span, first));
                *ok = false;
                continue;
            }
            seen.insert(dotted.clone(), axis.key.span);
            if axis.values.is_empty() {
                self.diags.push(
                    Diagnostic::error(
                        codes::EMPTY_AXIS,
                        format!("the axis `{dotted}` has no values"),
                    )
                    .at(axis.span, "an empty axis would expand to no instances")
                    .help("give the axis at least one value, or remove it"),
                );
                *ok = false;
                continue;
            }
            let Some(key) = self.spec_key(&dotted, axis.key.span) else {
                *ok = false;
                continue;
            };
            out.push(
                axis.values
                    .iter()
                    .filter_map(|v| self.single(key, v, ok))
                    .collect(),
            );
        }
        out
    }

    /// One layer per row; reports unknown and repeated columns, columns that are axes, arity.
    fn rows(&mut self, family: &'s ast::Family, ok: &mut bool) -> Vec<(&'s ast::Row, Layer)> {
        let Some(table) = &family.rows else {
            return Vec::new();
        };
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        let mut columns = Vec::new();
        for column in &table.columns {
            let dotted = column.dotted();
            if let Some(&first) = seen.get(&dotted) {
                self.diags.push(duplicate_key(&dotted, column.span, first));
                *ok = false;
                continue;
            }
            seen.insert(dotted.clone(), column.span);
            if let Some(axis) = family.axes.iter().find(|a| a.key.dotted() == dotted) {
                self.diags.push(
                    Diagnostic::error(
                        codes::AXIS_IS_COLUMN,
                        format!("`{dotted}` is both an axis and a column"),
                    )
                    .at(column.span, "this column")
                    .with(axis.key.span, "this axis")
                    .help("a key is either expanded over (`over`) or given per row, not both"),
                );
                *ok = false;
            }
            match self.spec_key(&dotted, column.span) {
                Some(key) => columns.push(key),
                None => *ok = false,
            }
        }
        if !*ok {
            return Vec::new();
        }
        let columns_span = match (table.columns.first(), table.columns.last()) {
            (Some(first), Some(last)) => first.span.to(last.span),
            _ => table.span,
        };
        let mut out = Vec::new();
        for row in &table.rows {
            if row.values.len() != columns.len() {
                self.diags.push(
                    Diagnostic::error(
                        codes::ROW_ARITY,
                        format!(
                            "row `{}` has {} values for {} columns",
                            row.name.name,
                            row.values.len(),
                            columns.len()
                        ),
                    )
                    .at(row.span, format!("{} values", row.values.len()))
                    .with(columns_span, format!("{} columns", columns.len()))
                    .help("give exactly one value per column, in column order"),
                );
                *ok = false;
                continue;
            }
            let mut layer = Layer {
                spec: empty_spec(),
                keys: Vec::new(),
            };
            for (&key, value) in columns.iter().zip(&row.values) {
                if let Target::Spec { set, .. } = key.target {
                    match set(&mut layer.spec, value) {
                        Ok(()) => layer.keys.push(key),
                        Err(d) => {
                            self.diags.push(d);
                            *ok = false;
                        }
                    }
                }
            }
            out.push((row, layer));
        }
        out
    }

    /// A key that sets a spec field (axes and columns cannot be `name`).
    fn spec_key(&mut self, dotted: &str, span: Span) -> Option<&'static Key> {
        match keys::lookup(dotted) {
            None => {
                self.diags.push(keys::unknown_key(dotted, span));
                None
            }
            Some(key) if matches!(key.target, Target::FamilyName) => {
                self.diags.push(name_outside_family(span));
                None
            }
            Some(key) => Some(key),
        }
    }

    /// A layer setting one key (an axis value).
    fn single(&mut self, key: &'static Key, value: &Value, ok: &mut bool) -> Option<Layer> {
        let Target::Spec { set, .. } = key.target else {
            return None;
        };
        let mut spec = empty_spec();
        match set(&mut spec, value) {
            Ok(()) => Some(Layer {
                spec,
                keys: vec![key],
            }),
            Err(d) => {
                self.diags.push(d);
                *ok = false;
                None
            }
        }
    }
}

fn name_outside_family(span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::NAME_OUTSIDE_FAMILY,
        "`name` is only allowed among a family's own entries",
    )
    .at(
        span,
        "`name` sets the naming pattern of a family's expanded instances",
    )
    .help("an instance is named by its item; remove this entry")
}

/// Moves `choice` to the next axis combination (last axis fastest); false after the last one.
fn advance(choice: &mut [usize], axes: &[Vec<Layer>]) -> bool {
    for i in (0..choice.len()).rev() {
        choice[i] += 1;
        if choice[i] < axes[i].len() {
            return true;
        }
        choice[i] = 0;
    }
    false
}

/// An axis value as it appears in names: `2d` for `dims`, list items joined with `x`.
fn name_part(key: &str, value: &Value) -> String {
    match &value.kind {
        ValueKind::Int(n) if key == "dims" => format!("{n}d"),
        ValueKind::Int(n) => n.to_string(),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Ident(s) | ValueKind::Str(s) => s.clone(),
        ValueKind::List(items) => items
            .iter()
            .map(|i| name_part("", i))
            .collect::<Vec<_>>()
            .join("x"),
        ValueKind::Auto => "auto".to_string(),
    }
}

fn default_name(family: &ast::Family, choice: &[usize], row: Option<&ast::Row>) -> String {
    let mut name = family.name.name.clone();
    for (axis, &i) in family.axes.iter().zip(choice) {
        name.push('_');
        name.push_str(&name_part(&axis.key.dotted(), &axis.values[i]));
    }
    if let Some(row) = row {
        name.push('_');
        name.push_str(&row.name.name);
    }
    name
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A parsed `name = "..."` pattern: literal text and `{family}`, `{row}`, `{AXIS}` placeholders.
struct NamePattern {
    parts: Vec<Part>,
}

enum Part {
    Text(String),
    Family,
    Row,
    /// Index of the axis in the family's declaration order.
    Axis(usize),
}

impl NamePattern {
    fn parse(text: &str, span: Span, family: &ast::Family) -> Result<Self, Diagnostic> {
        let bad = |message: String| {
            Diagnostic::error(codes::BAD_NAME_PATTERN, message)
                .at(span, "in this pattern")
                .help("placeholders are `{family}`, `{row}` and `{KEY}` for an axis key")
        };
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_string()));
            }
            let Some(close) = rest[open..].find('}') else {
                return Err(bad("unclosed `{` in the name pattern".to_string()));
            };
            let key = &rest[open + 1..open + close];
            parts.push(match key {
                "family" => Part::Family,
                "row" if family.rows.is_some() => Part::Row,
                "row" => {
                    return Err(bad(
                        "`{row}` in the name pattern of a family without rows".to_string()
                    ));
                }
                _ => match family.axes.iter().position(|a| a.key.dotted() == key) {
                    Some(i) => Part::Axis(i),
                    None => {
                        return Err(bad(format!(
                            "`{{{key}}}` is not `family`, `row` or an axis of this family"
                        )));
                    }
                },
            });
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Ok(NamePattern { parts })
    }

    fn expand(&self, family: &ast::Family, choice: &[usize], row: Option<&ast::Row>) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Family => out.push_str(&family.name.name),
                Part::Row => out.push_str(row.map_or("", |r| r.name.name.as_str())),
                Part::Axis(i) => {
                    let axis = &family.axes[*i];
                    out.push_str(&name_part(&axis.key.dotted(), &axis.values[choice[*i]]));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
