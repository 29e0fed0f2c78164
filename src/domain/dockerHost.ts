/**
 * The name a workspace reaches the Docker host by (Docker's `host-gateway`, added to every
 * workspace's hosts): Hangar's API and its AI gateway, when the operator sets no other address.
 */
export const DOCKER_HOST_NAME = 'host.docker.internal';
