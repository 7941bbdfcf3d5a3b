#!/usr/bin/env python3
"""Crawls the convolution layers of real models into the network corpus (bench/networks/).

A development tool, not needed by the build, the tests or CI. It instantiates model definitions
from torchvision, timm, transformers, diffusers and MONAI on PyTorch's meta device (no weights,
no memory, no downloads), runs one forward pass per model, input resolution and batch size with
hooks on every Conv1d/2d/3d and ConvTranspose1d/2d/3d, and writes each distinct layer once as a
grouped-convolution problem (K and C per group) with the ops a training step runs on it and the
models it came from:

- a convolution needs fwd and bwd_weight, and bwd_data unless its input is the network's input
  (a stem's input needs no gradient);
- a transposed convolution is the data gradient of the convolution it inverts: its forward pass
  is bwd_data, its input gradient fwd, its weight gradient bwd_weight.

    python3 -m venv venv && venv/bin/pip install torch torchvision timm transformers diffusers monai
    venv/bin/python bench/crawl_networks.py --out bench/networks/corpus.json

Problems are NHWGC / GKYXC / NHWGK (and their 1-D and 3-D spellings) as the shapes files of
`ckc bench` are; `padding_mode` other than zeros becomes an input padded before the convolution.
A model missing from the installed packages is reported and skipped.
"""
import argparse
import json
import sys
from collections import OrderedDict

import torch
import torch.nn as nn

from corpus_shapes import layer_class, out_sizes

CONVS = (nn.Conv1d, nn.Conv2d, nn.Conv3d)
TRANSPOSED = (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)


def tv(name, **kw):
    import torchvision.models as m

    return lambda: getattr(m, name)(weights=None, **kw)


def tv_video(name):
    import torchvision.models.video as m

    return lambda: getattr(m, name)(weights=None)


def tv_seg(name):
    import torchvision.models.segmentation as m

    return lambda: getattr(m, name)(weights=None, weights_backbone=None)


def timm_model(name, **kw):
    import timm

    return lambda: timm.create_model(name, pretrained=False, **kw)


class RetinaNetBody(nn.Module):
    """RetinaNet (ResNet-50 FPN): backbone, FPN and both heads, without the image transform and
    the box decoding (which hold no convolutions)."""

    def __init__(self, fcos=False):
        super().__init__()
        import torchvision.models.detection as d

        model = (d.fcos_resnet50_fpn if fcos else d.retinanet_resnet50_fpn)(
            weights=None, weights_backbone=None
        )
        self.backbone, self.head = model.backbone, model.head

    def forward(self, x):
        feats = list(self.backbone(x).values())
        return self.head(feats)


class FasterRcnnBody(nn.Module):
    """Faster R-CNN (ResNet-50 FPN v2): backbone, FPN and the RPN head's convolutions."""

    def __init__(self):
        super().__init__()
        import torchvision.models.detection as d

        model = d.fasterrcnn_resnet50_fpn_v2(weights=None, weights_backbone=None)
        self.backbone, self.rpn_head = model.backbone, model.rpn.head

    def forward(self, x):
        return self.rpn_head(list(self.backbone(x).values()))


class UNet(nn.Module):
    """The U-Net of Ronneberger et al. (2015) with padded 3x3 convolutions, batch norm, and 2x2
    transposed-convolution upsampling; `dims` 2 or 3 (the 3-D U-Net of Çiçek et al., 2016)."""

    def __init__(self, dims=2, cin=3, classes=2, width=64, depth=4):
        super().__init__()
        conv = [None, nn.Conv1d, nn.Conv2d, nn.Conv3d][dims]
        up = [None, nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d][dims]
        norm = [None, nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d][dims]
        pool = [None, nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d][dims]

        def block(i, o):
            return nn.Sequential(
                conv(i, o, 3, padding=1), norm(o), nn.ReLU(),
                conv(o, o, 3, padding=1), norm(o), nn.ReLU(),
            )

        widths = [width * 2**i for i in range(depth + 1)]
        self.down = nn.ModuleList([block(cin, widths[0])] + [
            block(widths[i], widths[i + 1]) for i in range(depth)
        ])
        self.pool = pool(2)
        self.up = nn.ModuleList([up(widths[i + 1], widths[i], 2, stride=2) for i in reversed(range(depth))])
        self.dec = nn.ModuleList([block(widths[i] * 2, widths[i]) for i in reversed(range(depth))])
        self.head = conv(widths[0], classes, 1)

    def forward(self, x):
        skips = []
        for i, b in enumerate(self.down):
            x = b(x if i == 0 else self.pool(x))
            skips.append(x)
        skips.pop()
        for u, d in zip(self.up, self.dec):
            x = d(torch.cat([u(x), skips.pop()], 1))
        return self.head(x)


class DiffusersUNet(nn.Module):
    """Stable Diffusion 1.x's denoising U-Net (diffusers' default UNet2DConditionModel config at
    a 64x64 latent) and its VAE decoder (a 3-channel last layer)."""

    def __init__(self, part):
        super().__init__()
        import diffusers

        self.part = part
        if part == "unet":
            self.net = diffusers.UNet2DConditionModel(cross_attention_dim=768)
        else:
            self.net = diffusers.AutoencoderKL(
                block_out_channels=(128, 256, 512, 512),
                down_block_types=("DownEncoderBlock2D",) * 4,
                up_block_types=("UpDecoderBlock2D",) * 4,
                layers_per_block=2,
                latent_channels=4,
            )

    def forward(self, x):
        if self.part == "unet":
            t = torch.zeros(x.shape[0], device=x.device)
            ctx = torch.zeros(x.shape[0], 77, 768, device=x.device)
            return self.net(x, t, encoder_hidden_states=ctx).sample
        return self.net.decode(x).sample


class AudioFrontEnd(nn.Module):
    """Speech and audio models from transformers' default configs: wav2vec 2.0's feature encoder
    (seven 1-D convolutions over raw audio) and positional convolution (grouped, kernel 128);
    its Conformer variant (depthwise 1-D convolutions, kernel 31); Whisper's two-layer encoder
    stem over 80 mel bins; EnCodec's encoder and decoder (1-D convolutions from and back to one
    channel, transposed convolutions to upsample)."""

    def __init__(self, name):
        super().__init__()
        import transformers as t

        self.name = name
        if name == "whisper":
            self.net = t.WhisperModel(t.WhisperConfig()).encoder
        elif name == "conformer":
            self.net = t.Wav2Vec2ConformerModel(t.Wav2Vec2ConformerConfig())
        elif name == "encodec":
            self.net = t.EncodecModel(t.EncodecConfig())
        else:
            self.net = t.Wav2Vec2Model(t.Wav2Vec2Config())

    def forward(self, x):
        if self.name == "encodec":
            return self.net.decoder(self.net.encoder(x))
        return self.net(x).last_hidden_state


def monai_model(name):
    def make():
        import monai.networks.nets as m

        if name == "monai_unet3d":
            return m.UNet(3, 1, 3, channels=(32, 64, 128, 256, 320), strides=(2, 2, 2, 2), num_res_units=2)
        if name == "segresnet":
            return m.SegResNet(spatial_dims=3, in_channels=4, out_channels=3, init_filters=16)
        if name == "unetr":
            return m.UNETR(in_channels=1, out_channels=14, img_size=(96, 96, 96))
        raise ValueError(name)

    return make


# name: (constructor, input shape without the batch, batch sizes, category)
MODELS = OrderedDict(
    [
        # Classic and modern CNNs at 224x224 (Inception at 299).
        ("resnet18", (tv("resnet18"), (3, 224, 224), (32, 128), "cnn")),
        ("resnet50", (tv("resnet50"), (3, 224, 224), (32, 128), "cnn")),
        ("resnet101", (tv("resnet101"), (3, 224, 224), (32,), "cnn")),
        ("resnext50_32x4d", (tv("resnext50_32x4d"), (3, 224, 224), (32, 128), "cnn")),
        ("resnext101_32x8d", (tv("resnext101_32x8d"), (3, 224, 224), (32,), "cnn")),
        ("wide_resnet50_2", (tv("wide_resnet50_2"), (3, 224, 224), (32,), "cnn")),
        ("vgg16_bn", (tv("vgg16_bn"), (3, 224, 224), (32,), "cnn")),
        ("densenet121", (tv("densenet121"), (3, 224, 224), (32,), "cnn")),
        ("inception_v3", (tv("inception_v3", aux_logits=False, init_weights=False), (3, 299, 299), (32,), "cnn")),
        ("googlenet", (tv("googlenet", aux_logits=False, init_weights=False), (3, 224, 224), (32,), "cnn")),
        ("squeezenet1_1", (tv("squeezenet1_1"), (3, 224, 224), (64,), "cnn")),
        ("mobilenet_v2", (tv("mobilenet_v2"), (3, 224, 224), (32, 128), "depthwise")),
        ("mobilenet_v3_large", (tv("mobilenet_v3_large"), (3, 224, 224), (32, 128), "depthwise")),
        ("shufflenet_v2_x1_0", (tv("shufflenet_v2_x1_0"), (3, 224, 224), (64,), "depthwise")),
        ("mnasnet1_0", (tv("mnasnet1_0"), (3, 224, 224), (64,), "depthwise")),
        ("efficientnet_b0", (tv("efficientnet_b0"), (3, 224, 224), (32, 128), "depthwise")),
        ("efficientnet_b4", (tv("efficientnet_b4"), (3, 380, 380), (16,), "depthwise")),
        ("efficientnet_v2_s", (tv("efficientnet_v2_s"), (3, 384, 384), (32,), "depthwise")),
        ("regnety_004", (timm_model("regnety_004"), (3, 224, 224), (64,), "grouped")),
        ("regnety_032", (timm_model("regnety_032"), (3, 224, 224), (32,), "grouped")),
        ("regnetx_080", (timm_model("regnetx_080"), (3, 224, 224), (32,), "grouped")),
        ("convnext_tiny", (tv("convnext_tiny"), (3, 224, 224), (32, 128), "convnext")),
        ("convnext_base", (tv("convnext_base"), (3, 224, 224), (32,), "convnext")),
        ("resnest50d", (timm_model("resnest50d"), (3, 224, 224), (32,), "grouped")),
        ("res2net50_26w_4s", (timm_model("res2net50_26w_4s"), (3, 224, 224), (32,), "cnn")),
        ("dla34", (timm_model("dla34"), (3, 224, 224), (32,), "cnn")),
        ("hrnet_w18", (timm_model("hrnet_w18"), (3, 224, 224), (16,), "cnn")),
        ("ghostnet_100", (timm_model("ghostnet_100"), (3, 224, 224), (64,), "depthwise")),
        ("mobilevit_s", (timm_model("mobilevit_s"), (3, 256, 256), (32,), "depthwise")),
        ("repvgg_a2", (timm_model("repvgg_a2"), (3, 224, 224), (32,), "cnn")),
        ("convnextv2_nano", (timm_model("convnextv2_nano"), (3, 224, 224), (64,), "convnext")),
        ("efficientnetv2_rw_t", (timm_model("efficientnetv2_rw_t"), (3, 288, 288), (32,), "depthwise")),
        ("cspdarknet53", (timm_model("cspdarknet53"), (3, 640, 640), (8, 16), "detection")),
        ("cspresnext50", (timm_model("cspresnext50"), (3, 256, 256), (32,), "grouped")),
        # Detection and segmentation.
        ("retinanet_r50_fpn", (lambda: RetinaNetBody(), (3, 800, 1216), (2, 8), "detection")),
        ("fcos_r50_fpn", (lambda: RetinaNetBody(fcos=True), (3, 800, 1216), (2,), "detection")),
        ("fasterrcnn_r50_fpn_v2", (lambda: FasterRcnnBody(), (3, 800, 1216), (2,), "detection")),
        ("deeplabv3_r50", (tv_seg("deeplabv3_resnet50"), (3, 512, 512), (8,), "segmentation")),
        ("fcn_r50", (tv_seg("fcn_resnet50"), (3, 512, 512), (8,), "segmentation")),
        ("lraspp_mbv3", (tv_seg("lraspp_mobilenet_v3_large"), (3, 512, 512), (16,), "segmentation")),
        ("unet", (lambda: UNet(2, 3, 2), (3, 256, 256), (4, 16), "segmentation")),
        ("sd_unet", (lambda: DiffusersUNet("unet"), (4, 64, 64), (4, 16), "diffusion")),
        ("sd_vae_decoder", (lambda: DiffusersUNet("vae"), (4, 64, 64), (2,), "diffusion")),
        # Vision transformers: patch embeddings (and their convolutional stems).
        ("vit_b16", (timm_model("vit_base_patch16_224"), (3, 224, 224), (32, 128), "patch")),
        ("vit_l14_clip", (timm_model("vit_large_patch14_clip_224"), (3, 224, 224), (32,), "patch")),
        ("dinov2_vits14", (timm_model("vit_small_patch14_dinov2", img_size=518), (3, 518, 518), (16,), "patch")),
        ("deit_s16_384", (timm_model("deit3_small_patch16_384"), (3, 384, 384), (32,), "patch")),
        ("swin_t", (timm_model("swin_tiny_patch4_window7_224"), (3, 224, 224), (32, 128), "patch")),
        ("pvt_v2_b2", (timm_model("pvt_v2_b2"), (3, 224, 224), (32,), "patch")),
        ("coatnet_0", (timm_model("coatnet_0_rw_224"), (3, 224, 224), (32,), "patch")),
        # 3-D video and medical.
        ("r3d_18", (tv_video("r3d_18"), (3, 16, 112, 112), (8, 32), "video")),
        ("r2plus1d_18", (tv_video("r2plus1d_18"), (3, 16, 112, 112), (8,), "video")),
        ("mc3_18", (tv_video("mc3_18"), (3, 16, 112, 112), (8,), "video")),
        ("s3d", (tv_video("s3d"), (3, 16, 224, 224), (4,), "video")),
        ("unet3d", (lambda: UNet(3, 1, 3, width=32), (1, 64, 64, 64), (2,), "medical")),
        ("monai_unet3d", (monai_model("monai_unet3d"), (1, 96, 96, 96), (2,), "medical")),
        ("segresnet", (monai_model("segresnet"), (4, 128, 128, 128), (1,), "medical")),
        ("unetr", (monai_model("unetr"), (1, 96, 96, 96), (2,), "medical")),
        # 1-D audio and sequence front ends.
        ("wav2vec2_base", (lambda: AudioFrontEnd("wav2vec2"), (16000 * 4,), (8, 32), "audio")),
        ("whisper_base", (lambda: AudioFrontEnd("whisper"), (80, 3000), (8, 32), "audio")),
        ("w2v2_conformer", (lambda: AudioFrontEnd("conformer"), (16000 * 4,), (8,), "audio")),
        ("encodec_24khz", (lambda: AudioFrontEnd("encodec"), (1, 24000 * 2), (8,), "audio")),
    ]
)


def record(layers, model, batch, mod, inp, out):
    x = inp[0]
    nd = x.dim() - 2
    transposed = isinstance(mod, TRANSPOSED)
    g = mod.groups
    f = list(mod.kernel_size)
    s = list(mod.stride)
    d = list(mod.dilation)
    if transposed:
        # The convolution it inverts maps `out` (spatial) to `x`: C = out channels, K = in.
        spatial = list(out.shape[2:])
        c, k = mod.out_channels // g, mod.in_channels // g
        pads = list(mod.padding)
        ops = ["bwd_data", "fwd", "bwd_weight"]
    else:
        spatial = list(x.shape[2:])
        c, k = mod.in_channels // g, mod.out_channels // g
        if isinstance(mod.padding, str):
            # 'same' pads (d·(f−1)) in total, the extra one on the right; 'valid' pads none.
            total = [e * (q - 1) if mod.padding == "same" else 0 for q, e in zip(f, d)]
            lp = [t // 2 for t in total]
            pads = None
            rp = [t - l for t, l in zip(total, lp)]
        else:
            pads = list(mod.padding)
        if mod.padding_mode != "zeros" and pads is not None:
            spatial = [a + 2 * p for a, p in zip(spatial, pads)]
            pads = [0] * nd
        ops = ["fwd", "bwd_weight"] + (["bwd_data"] if x.requires_grad else [])
    if pads is not None:
        lp, rp = pads, pads
    if min(out_sizes(spatial, f, s, d, lp, rp)) < 1:
        return
    key = (nd, g, batch[0], k, c, tuple(f), tuple(spatial), tuple(s), tuple(d), tuple(lp), tuple(rp))
    entry = layers.setdefault(key, {"models": OrderedDict(), "ops": set(), "count": 0})
    entry["models"][model] = None
    entry["ops"].update(ops)
    entry["count"] += 1


def crawl(name, make, shape, batches, layers):
    """Records the model's layers at each batch size. A model whose forward pass reads tensor
    values (`.item()`) cannot run on the meta device: it runs on the CPU with one sample, and its
    layers are recorded at each batch size (their shapes do not depend on it)."""
    for device in ("meta", "cpu"):
        found = OrderedDict()
        batch = [0]
        torch.manual_seed(0)
        with torch.device(device):
            model = make()
        model.train()
        hooks = [
            m.register_forward_hook(lambda mod, i, o: record(found, name, batch, mod, i, o))
            for m in model.modules()
            if isinstance(m, CONVS + TRANSPOSED)
        ]
        try:
            for n in batches:
                batch[0] = n
                model(torch.zeros(((n if device == "meta" else 1),) + tuple(shape), device=device))
        except (NotImplementedError, RuntimeError) as e:
            if device == "cpu" or "meta" not in str(e):
                raise
            continue
        finally:
            for h in hooks:
                h.remove()
        for key, e in found.items():
            into = layers.setdefault(key, {"models": OrderedDict(), "ops": set(), "count": 0})
            into["models"].update(e["models"])
            into["ops"].update(e["ops"])
            into["count"] += e["count"]
        return


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="", help="comma-separated model names")
    a = ap.parse_args()
    only = [m for m in a.only.split(",") if m]
    layers = OrderedDict()
    crawled, skipped = [], []
    categories = {}
    for name, (make, shape, batches, category) in MODELS.items():
        if make is None or (only and name not in only):
            continue
        before = sum(e["count"] for e in layers.values())
        try:
            crawl(name, make, shape, batches, layers)
        except Exception as e:  # a model the installed packages lack, or cannot run on meta
            skipped.append(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}")
            continue
        crawled.append(name)
        categories[name] = category
        print(f"{name}: {sum(e['count'] for e in layers.values()) - before} conv calls", file=sys.stderr)
    order = {"fwd": 0, "bwd_data": 1, "bwd_weight": 2}
    shapes, used = [], set()
    for key, e in layers.items():
        nd, g, n, k, c, f, i, s, d, lp, rp = key
        first = next(iter(e["models"]))
        base = f"{first}_g{g}k{k}c{c}_f{'x'.join(map(str, f))}s{s[0]}_i{'x'.join(map(str, i))}_n{n}"
        name, extra = base, 2
        while name in used:
            name, extra = f"{base}_{extra}", extra + 1
        used.add(name)
        shape = OrderedDict(
            name=name, ndim=nd, G=g, N=n, K=k, C=c, filter=list(f), input=list(i),
            stride=list(s), dilation=list(d), left_pad=list(lp), right_pad=list(rp),
            ops=sorted(e["ops"], key=order.get), models=list(e["models"]),
            category=categories[first],
        )
        shape["class"] = layer_class(shape)
        shapes.append(shape)
    about = (
        "Every distinct convolution layer of the models below at their batch sizes, crawled by "
        "bench/crawl_networks.py (torch " + torch.__version__ + "). K and C are per group; `ops` are "
        "the ops a training step runs on the layer; `models` the models it occurs in."
    )
    body = ",\n".join("  " + json.dumps(s, separators=(",", ":")) for s in shapes)
    with open(a.out, "w") as fh:
        fh.write("{\n")
        fh.write(f' "about": {json.dumps(about)},\n')
        fh.write(f' "models": {json.dumps(categories)},\n')
        fh.write(f' "shapes": [\n{body}\n ]\n}}\n')
    print(f"{len(shapes)} distinct layers from {len(crawled)} models", file=sys.stderr)
    for s in skipped:
        print(f"skipped {s}", file=sys.stderr)


if __name__ == "__main__":
    main()
