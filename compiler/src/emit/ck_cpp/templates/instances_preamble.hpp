#include "ck/tensor_operation/gpu/element/element_wise_operation.hpp"
#include "ck/library/tensor_operation_instance/add_device_operation_instance.hpp"

namespace ck {
namespace tensor_operation {
namespace device {
namespace instance {

using namespace ck::tensor_layout::convolution;

using F16  = ck::half_t;
using BF16 = ck::bhalf_t;
using F32  = float;
${tf32}using F64  = double;
using I8   = int8_t;
using I32  = int32_t;
#ifdef CK_ENABLE_FP8
using F8   = ck::f8_t;
#endif
#ifdef CK_ENABLE_BF8
using BF8  = ck::bf8_t;
#endif

using Empty_Tuple = ck::Tuple<>;

template <ck::index_t... Is>
using S = ck::Sequence<Is...>;

${gemm_layouts}using PassThrough = ck::tensor_operation::element_wise::PassThrough;
using Scale = ck::tensor_operation::element_wise::Scale;
using Bilinear = ck::tensor_operation::element_wise::Bilinear;
using Add = ck::tensor_operation::element_wise::Add;
using AddRelu = ck::tensor_operation::element_wise::AddRelu;
using Relu = ck::tensor_operation::element_wise::Relu;
${fused_ops}
