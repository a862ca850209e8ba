"""SDK options Hangar does not honour are refused by name, never ignored; GPUs where no runner has any
are refused at once, saying what exists (docs/fields.md lists every field)."""
import cwsandbox
import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import CWSandboxError


def test_a_runtime_class_is_refused_naming_the_field(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-options"], runtime_class="kata").wait()
    assert "runtime_class" in str(e.value), e.value


def test_gpus_where_no_runner_has_them_are_refused_saying_what_exists(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-options"], resources={"gpu": {"count": 1, "type": "H100"}}).wait()
    msg = str(e.value)
    assert "no runner can give one sandbox 1 GPU of type H100" in msg and "no GPUs" in msg, msg
    # Discovery agrees: no runner offers GPUs, and filtering by a GPU model finds none.
    runners = cwsandbox.list_runners()
    assert runners and all(r.max_gpu_count == 0 for r in runners)
    assert cwsandbox.list_runners(gpu_type="H100") == []


def test_get_reports_the_effective_runtime_class(hangar):
    sb = Sandbox.run(tags=["e2e-options"])
    try:
        sb.wait()
        # No class asked for, none configured: the node's default handler runs it.
        assert Sandbox.from_id(sb.sandbox_id).result().effective_runtime_class == "<node-default>"
    finally:
        sb.stop().result()


@pytest.mark.local_only
def test_egress_rules_are_refused_by_the_local_runtime_naming_the_field(hangar):
    from cwsandbox import EgressRule, NetworkOptions

    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-options"], network=NetworkOptions(egress=[EgressRule(cidr="198.18.0.0/15")])).wait()
    assert "network.egress" in str(e.value) and "deny_egress=true or false only" in str(e.value), e.value


def test_annotations_under_hangars_own_prefix_are_refused(hangar):
    # hangar.dev/egress-hosts would tell the egress proxy which names a sandbox may reach; a caller
    # must never be able to write it (or any other key Hangar keeps its records under).
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-options"], annotations={"hangar.dev/egress-hosts": '["*.com"]'}).wait()
    assert "hangar.dev/" in str(e.value) and "annotations" in str(e.value), e.value


@pytest.mark.parametrize("key", ["container.apparmor.security.beta.kubernetes.io/main", "seccomp.security.alpha.kubernetes.io/pod", "io.kubernetes.cri-o.userns-mode"])
def test_annotations_the_cluster_acts_on_are_refused(hangar, key):
    # On Kubernetes these would land on the sandbox's pod: an AppArmor or seccomp profile of the
    # tenant's choosing, a runtime setting. Refused by name on both runtimes, before any pod exists.
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-options"], annotations={key: "unconfined"}).wait()
    assert key in str(e.value) and "the cluster's own" in str(e.value), e.value
