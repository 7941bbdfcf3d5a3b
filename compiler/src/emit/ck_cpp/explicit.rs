//! Explicit-GEMM bwd-weight rows. `DeviceGroupedConvBwdWeight_Explicit_Xdl` takes the conv's
//! dimensions, layouts, tensor types and element ops, then the batched GEMM it runs (batch G,
//! M = K, N = C, K = N·∏out): `DeviceBatchedGemmMultiD_Xdl_CShuffle_V3` over column-major dOut
//! and row-major In into row-major dWei, the op CK's
//! `device_exp_gemm_xdl_universal_km_kn_mn_instance.hpp` lists (its type string prints
//! `DeviceBatchedGemmXdlUniversal`). The instance string's tile fields fill the GEMM.

/// The inner GEMM class and the header that defines it.
pub(super) const INNER: &str = "DeviceBatchedGemmMultiD_Xdl_CShuffle_V3";
pub(super) const INNER_HEADER: &str =
    "ck/tensor_operation/gpu/device/impl/device_batched_gemm_multiple_d_xdl_cshuffle_v3.hpp";
/// How many of the row's arguments belong to the conv op; the rest are the inner GEMM's.
pub(super) const HEAD: usize = 10;

type Args = Vec<(&'static str, String)>;

/// Rewrites a row in instance-string order (`NDimSpatial` … `ComputeTypeB`) into the conv op's
/// head followed by the inner GEMM's template arguments in CK's order; the error names a field
/// the row lacks.
pub(super) fn row(full: &Args, gemm_spec: String) -> Result<Args, &'static str> {
    let get = |name: &'static str| -> Result<String, &'static str> {
        full.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a.clone())
            .ok_or(name)
    };
    let pos = |name: &'static str| -> Result<usize, &'static str> {
        full.iter().position(|(n, _)| *n == name).ok_or(name)
    };
    let mut out: Args = Vec::new();
    for name in [
        "NDimSpatial",
        "InLayout",
        "WeiLayout",
        "OutLayout",
        "InDataType",
        "WeiDataType",
        "OutDataType",
        "InElementwiseOperation",
        "WeiElementwiseOperation",
        "OutElementwiseOperation",
    ] {
        out.push((name, get(name)?));
    }
    let tuple = || "Empty_Tuple".to_string();
    out.extend([
        ("ALayout", "Col".to_string()),
        ("BLayout", "Row".to_string()),
        ("DsLayout", tuple()),
        ("CLayout", "Row".to_string()),
        // GEMM A is dOut, B is In, C is dWei.
        ("ADataType", get("OutDataType")?),
        ("BDataType", get("InDataType")?),
        ("DsDataType", tuple()),
        ("CDataType", get("WeiDataType")?),
        ("GemmAccDataType", get("AccDataType")?),
        ("CShuffleDataType", get("WeiDataType")?),
        ("AElementwiseOperation", get("OutElementwiseOperation")?),
        ("BElementwiseOperation", get("InElementwiseOperation")?),
        ("CElementwiseOperation", get("WeiElementwiseOperation")?),
        ("GemmSpec", gemm_spec),
    ]);
    let (block, k1, vector) = (
        pos("BlockSize")?,
        pos("K1")?,
        pos("CBlockTransferScalarPerVector_NWaveNPerXdl")?,
    );
    out.extend(full[block..k1].iter().cloned());
    out.push(("AK1", full[k1].1.clone()));
    out.push(("BK1", full[k1].1.clone()));
    out.extend(full[k1 + 1..vector].iter().cloned());
    // The multi-D GEMM takes one C vector per output (E, then each D) as a sequence.
    out.push((
        "CDEShuffleBlockTransferScalarPerVectors",
        format!("S<{}>", full[vector].1),
    ));
    out.extend(full[vector + 1..].iter().cloned());
    Ok(out)
}
